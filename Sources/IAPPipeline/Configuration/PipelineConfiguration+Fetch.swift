import Foundation
import IAPFetch
import IAPFormats
import IAPStore

extension PipelineConfiguration {
    /// The fetch these settings ask for, checked: every missing option is named (``FetchError/missingOptions(_:)``, exit
    /// 64), a malformed one explained (``PipelineError/invalidConfiguration(_:)``).
    /// - Parameter requireArchive: false for `consumption`, which writes no pages.
    public func fetchOptions(requireArchive: Bool = true) throws -> FetchOptions {
        let settings = fetch
        // Financial reports alone need no In-App Purchase key; anything else does.
        let financeOnly =
            settings.asksForFinancialReports && settings.issuerId == nil && settings.keyId == nil
            && settings.privateKey == nil
        // Every missing option named at once: a first setup would otherwise learn them one run at a time.
        var missing = financeOnly ? [] : settings.missingServerKeyOptions
        let archive = settings.archive ?? inputs.first ?? (requireArchive ? nil : "")
        if archive == nil { missing.append("archive") }
        if bundleId.isEmpty { missing.append("bundle-id") }
        if settings.asksForFinancialReports { missing += settings.missingConnectOptions }
        guard missing.isEmpty, let archive else { throw FetchError.missingOptions(missing) }
        var options = FetchOptions(
            archive: archive, database: databasePath, bundleId: bundleId, issuerId: settings.issuerId ?? "",
            keyId: settings.keyId ?? "", privateKeyPath: settings.privateKey ?? "")
        guard let environment = AppStoreServerAPI.Environment(rawValue: self.environment) else {
            throw PipelineError.invalidConfiguration(
                "--environment must be Production or Sandbox (got \(self.environment)).")
        }
        options.environment = environment
        options.apiURL = settings.apiURL
        options.since = try settings.since.map { try Self.time($0, "since") }
        options.until = try settings.until.map { try Self.time($0, "until") }
        try Self.checkWindow(&options, historyAsked: !financeOnly, now: Int64(Date().timeIntervalSince1970 * 1000))
        switch settings.refundHistory ?? "all" {
        case "all": options.refundHistoryForAll = true
        case "none": options.refundHistoryForAll = false
        case let other: throw PipelineError.invalidConfiguration("--refund-history must be all or none (got \(other)).")
        }
        options.transactionIdsPath = settings.transactionIds
        options.orderIdsPath = settings.orderIds
        options.serverAPI = !financeOnly
        if settings.asksForFinancialReports, let connectIssuer = settings.connectIssuerId,
            let connectKey = settings.connectKeyId,
            let connectPrivateKey = settings.connectPrivateKey, let vendor = settings.vendorNumber
        {
            options.finance = FinanceFetchOptions(
                issuerId: connectIssuer, keyId: connectKey, privateKeyPath: connectPrivateKey, vendorNumber: vendor,
                vendorName: settings.vendorName.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap {
                    $0.isEmpty ? nil : $0
                },
                apiURL: settings.connectAPIURL)
        }
        return options
    }

    /// Documentation/Fetching.md "Notification History's window": an `--until` in the future is clamped to now (a fetch cannot have seen
    /// the future, and a mark set there would stop every later fetch from asking); a `--since` in the future, after
    /// `--until`, or older than Apple's 180 days of Notification History asks for nothing Apple can answer: refused.
    public static func checkWindow(_ options: inout FetchOptions, historyAsked: Bool, now: Int64) throws {
        if let until = options.until, until > now {
            options.notes.append(
                "--until \(ISO8601Millis.format(until)) is in the future: the window ends now, \(ISO8601Millis.format(now)), and only the part that was fetched counts as done."
            )
            options.until = now
        }
        guard let since = options.since else { return }
        if since > now {
            throw PipelineError.invalidConfiguration(
                "--since \(ISO8601Millis.format(since)) is in the future: nothing has happened there yet. Give a time in the past, or leave it out to fetch from where the last fetch ended."
            )
        }
        if let until = options.until, since >= until {
            throw PipelineError.invalidConfiguration(
                "--since \(ISO8601Millis.format(since)) is not before --until \(ISO8601Millis.format(until)): the window is empty. Swap them, or leave --until out to fetch up to now."
            )
        }
        if historyAsked, since < now - HistoryCoverage.appleRetentionMs {
            throw PipelineError.invalidConfiguration(
                "--since \(ISO8601Millis.format(since)) is older than the \(HistoryCoverage.appleRetentionMs / CivilCalendar.millisecondsPerDay) days Apple's Notification History keeps (from \(ISO8601Millis.format(now - HistoryCoverage.appleRetentionMs))): Apple cannot answer it. Ask from \(ISO8601Millis.format(now - HistoryCoverage.appleRetentionMs + 3_600_000)) on; for older gaps Apple's Financial Report is what still holds the truth."
            )
        }
    }

    private static func time(_ text: String, _ name: String) throws -> Int64 {
        guard let millis = ISO8601Millis.parse(text) else {
            throw PipelineError.invalidConfiguration(
                "--\(name) " + ISO8601Millis.refusal(of: text, example: "2026-10-01T00:00:00Z") + ".")
        }
        return millis
    }
}
