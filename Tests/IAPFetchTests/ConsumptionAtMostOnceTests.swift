import Foundation
import IAPConsumption
import IAPFetch
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// `consumption` sends each request at most once, never answers what nobody verified, and one
/// request Apple keeps failing does not stop the others. Before: the send and its record were two steps (a crash
/// or a lost 202 between them sent again, DECLINE included), forged requests in a `--no-verify` store were
/// answered, and one request's 500s ended the run.
@Suite struct ConsumptionAtMostOnceTests {
    typealias World = ConsumptionTests.World

    private func api(_ world: World, faults: [Int: FakeFault]) throws -> (AppStoreServerAPI, FakeAppStoreServer) {
        let key = try TestAPIKey(folder: world.archive.root + "/keys")
        let server = FakeAppStoreServer(
            data: FakeAppStoreData(), key: try key.key(), keyId: key.keyId, issuerId: key.issuerId,
            bundleId: world.app.bundleId, faults: faults)
        let url = try server.start()
        let (apiKey, _) = try AppStoreAPIKey.load(
            path: key.path, keyId: key.keyId, issuerId: key.issuerId, bundleId: world.app.bundleId)
        let policy = RetryPolicy(
            maximumAttempts: 3, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(20),
            attemptTimeout: .seconds(2))
        return (AppStoreServerAPI(key: apiKey, baseURL: url, retry: policy), server)
    }

    private func puts(_ server: FakeAppStoreServer, _ transaction: String) -> Int {
        server.requests.filter { $0 == "PUT /inApps/v2/transactions/consumption/\(transaction)" }.count
    }

    /// The first PUT, or the third (after two answered, when an HTTP client would reuse their connection and could
    /// send the request again on its own), reaches the fake, which closes the connection without answering.
    @Test(arguments: [1, 3])
    func aRequestWhoseAnswerIsLostIsInDoubtAndNeverSentAgain(dropped: Int) async throws {
        let world = try World()
        // The PUT reaches the fake, which closes the connection without answering, as a lost 202 would.
        let (api, server) = try api(world, faults: [dropped: .drop])
        defer { server.stop() }
        let first = try await world.responder(api: api).run(now: world.now)
        let doubtful = try #require(first.outcomes.first { $0.outcome == .inDoubt })
        #expect(first.count(.inDoubt) == 1 && first.count(.answered) == 3, "\(first.line)")
        #expect(puts(server, doubtful.transactionId) == 1)
        // Rerun: nothing is sent again, the doubtful one included.
        let again = try await world.responder(api: api).run(now: world.now + 60_000)
        await api.shutdown()
        #expect(puts(server, doubtful.transactionId) == 1)
        #expect(again.bodies.isEmpty)
        let result = try StoreLocation(world.archive.database).open().read {
            try $0.text(
                "SELECT result FROM consumption_answers WHERE transaction_id = ?", [.text(doubtful.transactionId)])
        }
        #expect(result == "in_doubt")
        let status = try StoreStatus.read(from: try StoreLocation(world.archive.database).open())
        #expect(status.consumptionAnswers.first { $0.label == "in_doubt" }?.count == 1)
    }

    @Test func anIntentARunLeftBehindIsReportedNotSent() async throws {
        let world = try World()
        // As a run killed after sending r4 and before recording Apple's answer leaves it.
        let store = try StoreLocation(world.archive.database).open()
        _ = try store.write { connection in
            try connection.execute(
                "INSERT INTO consumption_answers (notification_id, transaction_id, result, body, sent_at) VALUES ('request-r4', 'r4', 'sending', '{}', 1)"
            )
        }
        let (api, server) = try api(world, faults: [:])
        defer { server.stop() }
        let summary = try await world.responder(api: api).run(now: world.now)
        await api.shutdown()
        #expect(puts(server, "r4") == 0)
        #expect(summary.outcomes.contains { $0.transactionId == "r4" && $0.outcome == .inDoubt })
        #expect(summary.count(.answered) == 3)
    }

    @Test func oneRequestAppleKeepsFailingDoesNotStopTheOthers() async throws {
        let world = try World()
        // Every attempt of the first request answers 500 (three attempts).
        let (api, server) = try api(world, faults: [1: .status(500), 2: .status(500), 3: .status(500)])
        defer { server.stop() }
        let summary = try await world.responder(api: api).run(now: world.now)
        #expect(summary.count(.failed) == 1 && summary.count(.answered) == 3, "\(summary.line)")
        let failed = try #require(summary.failures.first)
        #expect(failed.message.contains("HTTP 500"))
        // Pending again: the next run sends it.
        let again = try await world.responder(api: api).run(now: world.now + 60_000)
        await api.shutdown()
        #expect(again.count(.answered) == 1)
        #expect(server.consumptionAnswers.filter { $0.transactionId == failed.transactionId }.count == 1)
    }

    @Test func requestsAcceptedUnverifiedAreNeverAnswered() async throws {
        let world = try World(verify: false)
        let (api, server) = try api(world, faults: [:])
        defer { server.stop() }
        let summary = try await world.responder(api: api).run(now: world.now)
        await api.shutdown()
        #expect(summary.count(.unverified) == 8, "\(summary.line)")
        #expect(!server.requests.contains { $0.hasPrefix("PUT") })
        #expect(
            try StoreStatus.read(from: StoreLocation(world.archive.database).open()).consumptionRequestsUnverified == 8)
    }

    @Test func aRequestSignedInTheFutureIsNotPending() async throws {
        let world = try World()
        // This machine's clock two hours behind Apple's.
        let summary = try await world.responder(api: nil).run(now: world.now - 2 * ConsumptionTests.hour)
        #expect(summary.count(.signedInFuture) >= 1)
        #expect(!summary.bodies.contains { $0.transactionId == "r4" })
    }
}
