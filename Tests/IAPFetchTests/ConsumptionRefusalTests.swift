import Foundation
import IAPConsumption
import IAPFetch
import IAPFormats
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// How `consumption` handles what Apple (or something in between) answers, each case before and after:
/// - a redirect: before, the request stayed `in_doubt` for ever and the run stopped; after, it stays pending, the other
///   requests are tried, and the next run sends it;
/// - a refusal (400): before, silent under `--quiet` with Apple's error code lost; after, Apple's code and message
///   are stored, summarised, and the command exits non-zero;
/// - `Retry-After` past the 12 hours: before, recorded with the run's start as its send time; after, with the
///   accepted attempt's time, reported as late;
/// - a whole-run deadline: requests not tried by then stay pending and the next run handles them.
@Suite struct ConsumptionRefusalTests {
    typealias World = ConsumptionTests.World

    private func api(_ world: World, faults: [Int: FakeFault], retry: RetryPolicy? = nil) throws -> (
        AppStoreServerAPI, FakeAppStoreServer
    ) {
        let key = try TestAPIKey(folder: world.archive.root + "/keys")
        let server = FakeAppStoreServer(
            data: FakeAppStoreData(), key: try key.key(), keyId: key.keyId, issuerId: key.issuerId,
            bundleId: world.app.bundleId, faults: faults)
        let url = try server.start()
        let (apiKey, _) = try AppStoreAPIKey.load(
            path: key.path, keyId: key.keyId, issuerId: key.issuerId, bundleId: world.app.bundleId)
        let policy =
            retry
            ?? RetryPolicy(
                maximumAttempts: 3, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(20),
                attemptTimeout: .seconds(2))
        return (AppStoreServerAPI(key: apiKey, baseURL: url, retry: policy), server)
    }

    private func answers(_ world: World) throws -> [String: [String]] {
        let rows = try StoreLocation(world.archive.database).open().read { connection in
            try connection.rows(
                "SELECT transaction_id, result, coalesce(http_status, -1), coalesce(apple_error_code, -1), sent_at FROM consumption_answers"
            )
        }
        var byTransaction: [String: [String]] = [:]
        for row in rows {
            byTransaction[row[0].text ?? ""] = [
                row[1].text ?? "", String(row[2].integer ?? 0), String(row[3].integer ?? 0),
                String(row[4].integer ?? 0),
            ]
        }
        return byTransaction
    }

    @Test func aRedirectKeepsTheRequestPendingAndTheOthersAreTried() async throws {
        let world = try World()
        let (api, server) = try api(world, faults: [1: .redirect("http://127.0.0.1:9/portal")])
        defer { server.stop() }
        let first = try await world.responder(api: api).run(now: world.now)
        #expect(first.count(.failed) == 1 && first.count(.answered) == 3 && first.count(.inDoubt) == 0, "\(first.line)")
        let redirected = try #require(first.failures.first)
        #expect(redirected.message.contains("redirect") && redirected.message.contains("pending"))
        #expect(try answers(world)[redirected.transactionId] == nil, "nothing recorded: still pending")
        let again = try await world.responder(api: api).run(now: world.now + 60_000)
        await api.shutdown()
        #expect(again.count(.answered) == 1, "\(again.line)")
        #expect(server.consumptionAnswers.filter { $0.transactionId == redirected.transactionId }.count == 1)
    }

    @Test func aRefusalIsStoredWithApplesCodeAndReported() async throws {
        let world = try World()
        let (api, server) = try api(world, faults: [1: .status(400)])
        defer { server.stop() }
        let summary = try await world.responder(api: api).run(now: world.now)
        await api.shutdown()
        let refusal = try #require(summary.refusals.first)
        #expect(summary.count(.refused) == 1 && refusal.status == 400 && refusal.errorCode == 400, "\(summary.line)")
        let stored = try #require(try answers(world)[refusal.transactionId])
        #expect(stored[0] == "refused" && stored[1] == "400" && stored[2] == "400")
        let status = try StoreStatus.read(from: StoreLocation(world.archive.database).open())
        #expect(status.consumptionRefusals.map(\.transactionId) == [refusal.transactionId])
        #expect(status.consumptionRefusals.first?.errorCode == 400)
    }

    @Test func anAnswerAcceptedAfterTheTwelveHoursIsRecordedAtItsTimeAndLate() async throws {
        let world = try World()
        // The oldest pending request (s1) was signed 7 hours ago: a clock 5 hours 59 minutes on, then waits of
        // Retry-After, make its accepted answer land after its 12 hours.
        let start = world.now + 5 * ConsumptionTests.hour - 10_000
        let retry = RetryPolicy(
            maximumAttempts: 3, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(20),
            maximumTotalDelay: .seconds(30),
            attemptTimeout: .seconds(5))
        let (api, server) = try api(
            world, faults: [1: .retryAfter(status: 503, seconds: 6), 2: .retryAfter(status: 503, seconds: 6)],
            retry: retry)
        defer { server.stop() }
        let summary = try await world.responder(api: api).run(now: start)
        await api.shutdown()
        let late = try #require(summary.outcomes.first { $0.outcome == .answeredLate }, "\(summary.line)")
        let stored = try #require(try answers(world)[late.transactionId])
        #expect(stored[0] == "answered")
        #expect(Int64(stored[3])! >= start + 12_000, "the send time is the accepted attempt's, not the run's start")
    }

    @Test func aDeadlineLeavesTheRemainingRequestsPendingForTheNextRun() async throws {
        let world = try World()
        let (api, server) = try api(world, faults: [1: .delay(.milliseconds(1_500))])
        defer { server.stop() }
        let store = try StoreLocation(world.archive.database).open()
        let facts = try ReferenceFiles.readConsumptionFacts(at: world.facts)
        let first = try await ConsumptionResponder(store: store, facts: facts, api: api, deadline: .seconds(1)).run(
            now: world.now)
        // The request in flight when the deadline passed (slowed to 1.5 s) finished; no other was sent. What is
        // asserted is what was sent, not how long it took: a loaded machine stretches wall time, not this.
        #expect(first.stoppedByDeadline && first.count(.notTried) > 0, "\(first.line)")
        #expect(first.count(.answered) == 1)
        #expect(server.consumptionAnswers.count == 1, "nothing was sent after the deadline")
        let second = try await ConsumptionResponder(store: store, facts: facts, api: api, deadline: .seconds(60)).run(
            now: world.now + 60_000)
        await api.shutdown()
        #expect(second.count(.answered) == 3 && !second.stoppedByDeadline, "\(second.line)")
        #expect(Set(server.consumptionAnswers.map(\.transactionId)).count == 4)
    }
}
