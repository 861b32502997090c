import Foundation
import IAPConsumption
import IAPFetch
import IAPFormats
import IAPStore
import IAPTestSupport

/// Runs `consumption` twice over a store, a minute apart, against a fake App Store Server API that accepts every
/// answer: what the forged- and conflicting-request tests look at (the summaries, and the requests the fake saw).
enum ConsumptionRuns {
    struct Result {
        let first: ConsumptionSummary
        let again: ConsumptionSummary
        let server: FakeAppStoreServer
        let store: any StoreEngine
    }

    static func twice(
        database: String, facts: String, app: AppFixture, keys folder: String, now: Int64
    ) async throws -> Result {
        let key = try TestAPIKey(folder: folder)
        let server = FakeAppStoreServer(
            data: FakeAppStoreData(), key: try key.key(), keyId: key.keyId, issuerId: key.issuerId,
            bundleId: app.bundleId)
        let url = try server.start()
        defer { server.stop() }
        let (apiKey, _) = try AppStoreAPIKey.load(
            path: key.path, keyId: key.keyId, issuerId: key.issuerId, bundleId: app.bundleId)
        let api = AppStoreServerAPI(
            key: apiKey, baseURL: url,
            retry: RetryPolicy(
                maximumAttempts: 2, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(20),
                attemptTimeout: .seconds(2)))
        let store = try StoreLocation(database).open()
        let responder = ConsumptionResponder(
            store: store, facts: try ReferenceFiles.readConsumptionFacts(at: facts), api: api)
        let first = try await responder.run(now: now)
        let again = try await responder.run(now: now + 60_000)
        await api.shutdown()
        return Result(first: first, again: again, server: server, store: store)
    }
}
