import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSigning
import IAPTestSupport
import Testing

/// Refund-history pages, order lookups, notification-history pages and envelopes.
@Suite struct LookupIngestTests {
    let app = AppFixture()

    func refunded(_ id: String, day: Int, type: String = "Consumable", product: String = "com.example.coins")
        -> JSONValue
    {
        app.transaction(
            id: id, product: product, type: type, purchase: Day.at(day - 2), price: 4_990, signedDate: Day.at(day + 1),
            extra: ["revocationDate": .int(Day.at(day)), "revocationReason": 0])
    }

    @Test func aBadEntryQuarantinesOnlyThatEntryAndThePageTimeIsItsNewestSignedDate() throws {
        let archive = try TestArchive()
        let good1 = JSONValue.string(try app.sign(refunded("r1", day: 3)))
        let forged = JSONValue.string(try app.sign(refunded("r2", day: 4), with: TestChains.untrustedSigner))
        let good2 = JSONValue.string(try app.sign(refunded("r3", day: 6)))
        let page: JSONValue = ["signedTransactions": [good1, forged, good2, 42], "revision": "x", "hasMore": false]
        try archive.write("refunds.json", lines: [page.text])
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == ["untrusted_chain", "bad_field"])
        #expect(try run.count("SELECT count(*) FROM transactions WHERE revocation_date IS NOT NULL") == 2)
        #expect(try run.count("SELECT count(DISTINCT document_time) FROM documents WHERE outcome = 'accepted'") == 1)
        let time: Int64? = try run.value("SELECT document_time FROM documents WHERE outcome = 'accepted' LIMIT 1")
        #expect(time == Day.at(7))
        #expect(try run.count("SELECT count(*) FROM transaction_versions WHERE source = 'refund_history'") == 2)
    }

    /// An entry of another app on a page of this app's refunds (a key shared between apps) is quarantined alone, its
    /// bundle named; the page's other entries count.
    @Test func anEntryOfAnotherAppIsQuarantinedAloneNamingItsBundle() throws {
        let archive = try TestArchive()
        var other = app
        other.bundleId = "com.example.other"
        let page: JSONValue = [
            "signedTransactions": [
                .string(try app.sign(refunded("r1", day: 3))),
                .string(
                    try other.sign(
                        other.transaction(
                            id: "x1", product: "com.example.coins", type: "Consumable", purchase: Day.at(1), price: 990,
                            signedDate: Day.at(4), extra: ["revocationDate": .int(Day.at(3))]))),
            ],
            "revision": "x", "hasMore": false,
        ]
        try archive.write("refunds.json", lines: [page.text])
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == ["wrong_app"])
        #expect(try run.strings("SELECT message FROM quarantine").first?.contains("signedTransactions[1]") == true)
        #expect(try run.strings("SELECT transaction_id FROM transactions") == ["r1"])
    }

    @Test func orderLookupWithoutOrderIdGetsAGeneratedKeyAndANote() throws {
        let archive = try TestArchive()
        try archive.write(
            "orders.jsonl",
            lines: [
                try app.orderLookup(orderId: "MX1234", [refunded("o1", day: 3)]),
                try app.orderLookup(
                    orderId: nil,
                    [
                        app.transaction(
                            id: "o2", product: "com.example.coins", type: "Consumable", purchase: Day.at(2),
                            signedDate: Day.at(4))
                    ]),
                try app.orderLookup(orderId: "BAD999", status: 1, []),
            ])
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == [])
        #expect(try run.count("SELECT count(*) FROM order_lookups") == 3)
        #expect(
            try run.count(
                "SELECT count(*) FROM order_lookups WHERE lookup_id LIKE 'generated:%' AND order_id IS NULL AND note IS NOT NULL"
            ) == 1)
        #expect(try run.count("SELECT count(*) FROM order_lookups WHERE lookup_id = 'BAD999' AND status = 1") == 1)
        #expect(try run.count("SELECT count(*) FROM order_lookup_transactions") == 2)
    }

    @Test func notificationHistoryEntriesAreNotificationsAndDeduplicateWithWebhookCopies() throws {
        let archive = try TestArchive()
        let payload = try app.notificationPayload(
            type: "DID_RENEW", uuid: "n-hist", signedDate: Day.at(2),
            transaction: app.transaction(id: "t1", purchase: Day.at(2), expires: Day.at(32), signedDate: Day.at(2)))
        let jws = try app.sign(payload)
        let page: JSONValue = [
            "notificationHistory": [
                [
                    "signedPayload": .string(jws),
                    "sendAttempts": [["attemptDate": .int(Day.at(2)), "sendAttemptResult": "SUCCESS"]],
                ]
            ],
            "hasMore": false, "paginationToken": "p",
        ]
        try archive.write("history.json", lines: [page.text])
        try archive.write("webhook.jsonl", lines: [AppFixture.body(jws)])
        let run = try IngestRun.ingest(archive)
        #expect(try run.count("SELECT count(*) FROM notifications") == 1)
        #expect(
            try run.count("SELECT count(*) FROM documents WHERE kind = 'notification_history_entry' AND entry = 1") == 1
        )
        #expect(
            try run.count("SELECT count(*) - count(DISTINCT document_id) FROM documents WHERE outcome = 'accepted'")
                == 1)
    }

    @Test(arguments: [
        JSONValue.int(1_696_500_000_000), JSONValue.string("2023-10-05T10:00:00Z"),
        JSONValue.string("2023-10-05T12:00:00.000+02:00"),
    ])
    func envelopeReceivedAtIsKept(_ receivedAt: JSONValue) throws {
        let archive = try TestArchive()
        let line = try AppFixture.envelope(
            receivedAt: receivedAt, body: try app.notification(type: "DID_RENEW", uuid: "n-env", signedDate: Day.at(2)))
        try archive.write("env.jsonl", lines: [line])
        let run = try IngestRun.ingest(archive)
        let stored: Int64? = try run.value("SELECT received_at FROM notifications")
        #expect(stored == 1_696_500_000_000)
    }
}
