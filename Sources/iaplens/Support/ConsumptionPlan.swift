import IAPAnalytics
import ArgumentParser
import Foundation
import IAPConsumption
import IAPFetch
import IAPFormats
import IAPPipeline
import IAPStore

/// `iaplens consumption` (and `run` with "facts" in its config): brings the models up to date, then answers every
/// pending consumption request (Documentation/Pipeline.md "Answering consumption requests").
enum ConsumptionPlan {
    static func run(_ c: PipelineConfiguration, dryRun: Bool) async throws {
        guard let factsPath = c.fetch.facts else { throw FetchError.missingOption("facts") }
        guard !c.bundleId.isEmpty else { throw FetchError.missingOption("bundle-id") }
        let facts = try ReferenceFiles.readConsumptionFacts(at: factsPath)
        // Flags are evaluated at each request's time by the models (account_flags): build them from the data now.
        _ = try Pipeline(configuration: c).analyze()
        var api: AppStoreServerAPI?
        if !dryRun {
            let options = try FetchPlan.options(c, requireArchive: false)
            let (key, warning) = try AppStoreAPIKey.load(
                path: options.privateKeyPath, keyId: options.keyId, issuerId: options.issuerId, bundleId: options.bundleId)
            if let warning { Console.warn(warning) }
            api = AppStoreServerAPI(key: key, baseURL: options.apiURL ?? options.environment.baseURL, retry: options.retry)
        }
        let location = try StoreLocation(c.databasePath)
        let lock = try location.lockForRun(command: "consumption")
        let summary: ConsumptionSummary
        do {
            let responder = ConsumptionResponder(store: try location.open(), facts: facts, api: api)
            summary = try await responder.run(now: Int64(Date().timeIntervalSince1970 * 1000))
        } catch {
            await api?.shutdown()
            throw error
        }
        await api?.shutdown()
        withExtendedLifetime(lock) {}
        if dryRun {
            // Standard output holds the bodies alone, one JSON line each, so a script can read them.
            for (transactionId, body) in summary.bodies {
                Console.note("would send for transaction \(transactionId):")
                print(body)
            }
            Console.note(summary.line)
        } else {
            Console.result(summary.line)
        }
        for outcome in summary.outcomes where outcome.outcome == .inDoubt {
            Console.warn(
                "the consumption request \(outcome.notificationId) (transaction \(outcome.transactionId)) was sent but its answer was never recorded: it may have reached Apple, so it is not sent again. Check it in App Store Connect.")
        }
        let unverified = summary.count(.unverified)
        if unverified > 0 {
            Console.warn(
                "\(unverified) consumption request(s) were not answered: their notifications were accepted without a verified signature (--no-verify), so anyone could have written them. Ingest Apple's signed copies to answer them.")
        }
        if !summary.failures.isEmpty {
            for failure in summary.failures { Console.warn("transaction \(failure.transactionId): \(failure.message)") }
            Console.error(
                "\(summary.failures.count) consumption request(s) could not be sent because Apple kept failing; every other request was tried. Run consumption again later (within \(BusinessRules.consumptionAnswerWindowHours) hours of each request).")
            throw ExitCode(75)
        }
    }
}
