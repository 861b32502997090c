import ArgumentParser
import Foundation
import IAPFetch
import IAPFormats
import IAPPipeline

/// Turns a configuration's fetch settings into a fetch, runs it with progress on the terminal, and prints its line.
enum FetchPlan {
    static func options(_ c: PipelineConfiguration, requireArchive: Bool = true) throws -> FetchOptions {
        let settings = c.fetch
        // Financial reports alone need no In-App Purchase key; anything else does.
        let financeOnly = settings.asksForFinancialReports && settings.issuerId == nil && settings.keyId == nil
            && settings.privateKey == nil
        guard let issuerId = settings.issuerId ?? (financeOnly ? "" : nil) else { throw FetchError.missingOption("issuer-id") }
        guard let keyId = settings.keyId ?? (financeOnly ? "" : nil) else { throw FetchError.missingOption("key-id") }
        guard let privateKey = settings.privateKey ?? (financeOnly ? "" : nil) else { throw FetchError.missingOption("private-key") }
        guard let archive = settings.archive ?? c.inputs.first ?? (requireArchive ? nil : "") else {
            throw FetchError.missingOption("archive")
        }
        guard !c.bundleId.isEmpty else { throw FetchError.missingOption("bundle-id") }
        var options = FetchOptions(
            archive: archive, database: c.databasePath, bundleId: c.bundleId, issuerId: issuerId, keyId: keyId,
            privateKeyPath: privateKey)
        guard let environment = AppStoreServerAPI.Environment(rawValue: c.environment) else {
            throw ValidationError("--environment must be Production or Sandbox (got \(c.environment)).")
        }
        options.environment = environment
        options.apiURL = settings.apiURL
        options.since = try settings.since.map { try time($0, "since") }
        options.until = try settings.until.map { try time($0, "until") }
        switch settings.refundHistory ?? "all" {
        case "all": options.refundHistoryForAll = true
        case "none": options.refundHistoryForAll = false
        case let other: throw ValidationError("--refund-history must be all or none (got \(other)).")
        }
        options.transactionIdsPath = settings.transactionIds
        options.orderIdsPath = settings.orderIds
        options.serverAPI = !financeOnly
        if settings.asksForFinancialReports {
            guard let connectIssuer = settings.connectIssuerId else { throw FetchError.missingOption("connect-issuer-id") }
            guard let connectKey = settings.connectKeyId else { throw FetchError.missingOption("connect-key-id") }
            guard let connectPrivateKey = settings.connectPrivateKey else { throw FetchError.missingOption("connect-private-key") }
            guard let vendor = settings.vendorNumber, !vendor.isEmpty else { throw FetchError.missingOption("vendor-number") }
            options.finance = FinanceFetchOptions(
                issuerId: connectIssuer, keyId: connectKey, privateKeyPath: connectPrivateKey, vendorNumber: vendor,
                apiURL: settings.connectAPIURL)
        }
        return options
    }

    /// At most one progress line a second.
    private final class ProgressThrottle: @unchecked Sendable {
        private let lock = NSLock()
        private var last = Date.distantPast

        func allows() -> Bool {
            lock.withLock {
                guard Date().timeIntervalSince(last) >= 1 else { return false }
                last = Date()
                return true
            }
        }
    }

    private static func time(_ text: String, _ name: String) throws -> Int64 {
        guard let millis = ISO8601Millis.parse(text) else {
            throw ValidationError("--\(name) must be ISO 8601 UTC, e.g. 2026-10-01T00:00:00Z (got \(text)).")
        }
        return millis
    }

    /// Fetches and prints the summary. - Returns: the archive folder written into.
    @discardableResult
    static func run(_ c: PipelineConfiguration) async throws -> String {
        let options = try options(c)
        let throttle = ProgressThrottle()
        let summary = try await Fetcher(options: options).run { line in
            if throttle.allows() { Console.note(line) }
        }
        for warning in summary.warnings { Console.warn(warning) }
        Console.result(summary.line)
        return options.archive
    }
}
