import Foundation
import IAPConsumption
import IAPFetch
import IAPFormats
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// A `CONSUMPTION_REQUEST` signed by an untrusted chain that reuses a genuine request's notification ID, ingested with
/// `--no-verify` beside the verified genuine one. Before: both were answered (three PUTs, one a `DECLINE` for the
/// forged transaction) and the stored answer named the genuine transaction with the forged one's body. After: only the
/// verified copy is answered, once; the forged copies are reported `unverified` and never sent, in either order of
/// arrival, on both engines.
@Suite struct ForgedConsumptionRequestTests {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    @Test(arguments: StoreKind.allCases, [true, false])
    func aForgedCopyOfARealRequestIsNeverAnswered(engine: StoreKind, genuineFirst: Bool) async throws {
        let archive = try TestArchive()
        let database = try engine.freshDatabase(in: archive.root)
        let app = AppFixture()
        var forger = AppFixture()
        forger.signer = TestChains.untrustedSigner
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let honest = "bbbbbbbb-0000-4000-8000-00000000000b"
        let ring = "aaaaaaaa-0000-4000-8000-00000000000a"
        func coins(_ fixture: AppFixture, _ id: String, token: String, bought: Int64) -> JSONValue {
            fixture.transaction(
                id: id, product: "com.example.coins", type: "Consumable", purchase: bought, price: 4_990,
                signedDate: bought,
                extra: ["appAccountToken": .string(token)])
        }
        // The genuine request: an honest customer's purchase, asked about an hour ago.
        let genuine = coins(app, "g1", token: honest, bought: now - 2 * Self.day)
        try archive.write(
            "genuine/notifications.jsonl",
            lines: [
                try app.notification(
                    type: "ONE_TIME_CHARGE", uuid: "buy-g1", signedDate: now - 2 * Self.day, transaction: genuine),
                try app.notification(
                    type: "CONSUMPTION_REQUEST", uuid: "request-1", signedDate: now - Self.hour, transaction: genuine),
            ])
        // Two forged copies with the genuine request's ID: one for another account's transaction (another lineage),
        // one for the genuine transaction itself with other content (the same lineage).
        let forged = coins(forger, "f1", token: ring, bought: now - 3 * Self.day)
        try archive.write(
            "forged/notifications.jsonl",
            lines: [
                try forger.notification(
                    type: "ONE_TIME_CHARGE", uuid: "buy-f1", signedDate: now - 3 * Self.day, transaction: forged),
                try forger.notification(
                    type: "CONSUMPTION_REQUEST", uuid: "request-1", signedDate: now - 2 * Self.hour, transaction: forged
                ),
                try forger.notification(
                    type: "CONSUMPTION_REQUEST", uuid: "request-1", signedDate: now - 3 * Self.hour,
                    transaction: coins(forger, "g1", token: ring, bought: now - 2 * Self.day)),
            ])
        let facts = archive.root + "/facts.csv"
        try """
        transaction_id,customer_consented,delivery_status,consumption_percentage,sample_content_provided
        g1,true,DELIVERED,25000,false
        f1,true,DELIVERED,100000,false

        """.write(toFile: facts, atomically: true, encoding: .utf8)
        func ingest(_ folder: String, verify: Bool) throws {
            _ = try Pipeline(
                configuration: try archive.configuration(app) {
                    $0.inputs = [archive.inputs + "/" + folder]
                    $0.databasePath = database
                    $0.noVerify = !verify
                }
            ).run()
        }
        if genuineFirst {
            try ingest("genuine", verify: true)
            try ingest("forged", verify: false)
        } else {
            try ingest("forged", verify: false)
            try ingest("genuine", verify: true)
        }

        let runs = try await ConsumptionRuns.twice(
            database: database, facts: facts, app: app, keys: archive.root + "/keys", now: now)
        let (summary, again, server, store) = (runs.first, runs.again, runs.server, runs.store)

        // One PUT, for the genuine transaction, with the genuine facts and no DECLINE.
        let puts = server.requests.filter { $0.hasPrefix("PUT") }
        #expect(puts == ["PUT /inApps/v2/transactions/consumption/g1"], "\(summary.line)")
        #expect(
            server.consumptionAnswers.map(\.body) == [
                #"{"consumptionPercentage":25000,"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#
            ])
        #expect(summary.count(.answered) == 1 && summary.count(.unverified) == 1, "\(summary.line)")
        #expect(again.bodies.isEmpty, "\(again.line)")
        let stored = try store.read { connection in
            try connection.rows("SELECT transaction_id, body FROM consumption_answers").map {
                [$0[0].text ?? "", $0[1].text ?? ""]
            }
        }
        #expect(stored.count == 1 && stored.first?.first == "g1" && stored.first?.last?.contains("25000") == true)
        // The genuine transaction's stored copy of the request is the verified one, whatever arrived first.
        let copies = try store.read { connection in
            try connection.rows(
                "SELECT transaction_id, is_verified, signed_date FROM notifications WHERE notification_id = 'request-1' ORDER BY transaction_id"
            ).map { [$0[0].text ?? "", String($0[1].integer ?? -1), String($0[2].integer ?? -1)] }
        }
        #expect(copies == [["f1", "0", String(now - 2 * Self.hour)], ["g1", "1", String(now - Self.hour)]])
        #expect(try StoreStatus.read(from: store).consumptionRequestsUnverified == 1)
    }
}
