import Foundation
import IAPConsumption
import IAPFetch
import IAPFormats
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// Two verified copies of one consumption request that name different transactions cannot both be Apple's request:
/// neither is answered, on this run or the next, and the run says which request it left alone.
@Suite struct ConflictingConsumptionRequestTests {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    @Test func twoVerifiedCopiesNamingDifferentTransactionsAreNeitherAnswered() async throws {
        let archive = try TestArchive()
        let database = try StoreKind.sqlite.freshDatabase(in: archive.root)
        let app = AppFixture()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        func coins(_ id: String) -> JSONValue {
            app.transaction(
                id: id, product: "com.example.coins", type: "Consumable", purchase: now - 2 * Self.day, price: 4_990,
                signedDate: now - 2 * Self.day, extra: ["appAccountToken": .string("acct-\(id)")])
        }
        try archive.write(
            "notifications.jsonl",
            lines: [
                try app.notification(
                    type: "ONE_TIME_CHARGE", uuid: "buy-c1", signedDate: now - 2 * Self.day, transaction: coins("c1")),
                try app.notification(
                    type: "ONE_TIME_CHARGE", uuid: "buy-c2", signedDate: now - 2 * Self.day, transaction: coins("c2")),
                try app.notification(
                    type: "CONSUMPTION_REQUEST", uuid: "request-1", signedDate: now - Self.hour,
                    transaction: coins("c1")),
                try app.notification(
                    type: "CONSUMPTION_REQUEST", uuid: "request-1", signedDate: now - 2 * Self.hour,
                    transaction: coins("c2")),
            ])
        _ = try Pipeline(configuration: try archive.configuration(app) { $0.databasePath = database }).run()
        let facts = archive.root + "/facts.csv"
        try """
        transaction_id,customer_consented,delivery_status,consumption_percentage,sample_content_provided
        c1,true,DELIVERED,100000,false
        c2,true,DELIVERED,100000,false

        """.write(toFile: facts, atomically: true, encoding: .utf8)
        let runs = try await ConsumptionRuns.twice(
            database: database, facts: facts, app: app, keys: archive.root + "/keys", now: now)
        let (summary, again, server) = (runs.first, runs.again, runs.server)
        #expect(server.requests.filter { $0.hasPrefix("PUT") }.isEmpty, "\(server.requests)")
        #expect(summary.count(.conflicting) == 2 && summary.count(.answered) == 0, "\(summary.line)")
        #expect(again.count(.conflicting) == 2 && again.bodies.isEmpty, "\(again.line)")
        #expect(
            summary.outcomes.filter { $0.outcome == .conflicting }.map(\.notificationId) == ["request-1", "request-1"])
    }
}
