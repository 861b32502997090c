import Foundation
import IAPFormats
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// Apple's data read as Apple means it: each case before and after, on data signed like Apple's where
/// signatures apply.
@Suite struct AppleSemanticsTests {
    /// A V1 body whose one receipt entry was cancelled on `cancelled`; `upgraded` marks it as the plan the customer
    /// upgraded away from.
    private func v1Body(app: AppFixture, cancelled: String, upgraded: Bool) -> String {
        var receipt: JSONValue = [
            "transaction_id": "5000", "original_transaction_id": "5000", "product_id": "com.example.monthly",
            "quantity": "1", "in_app_ownership_type": "PURCHASED",
            "purchase_date_ms": .string(String(Scenario.at("2024-03-01T00:00:00Z"))),
            "original_purchase_date_ms": .string(String(Scenario.at("2024-03-01T00:00:00Z"))),
            "expires_date_ms": .string(String(Scenario.at("2024-04-01T00:00:00Z"))),
            "cancellation_date_ms": .string(String(Scenario.at(cancelled))), "cancellation_reason": "0",
        ]
        if upgraded { receipt = receipt.setting("is_upgraded", "true") }
        let body: JSONValue = [
            "notification_type": "INTERACTIVE_RENEWAL", "environment": "PROD", "bid": .string(app.bundleId),
            "auto_renew_status": "true", "original_transaction_id": "5000",
            "unified_receipt": [
                "status": 0, "environment": "Production", "latest_receipt": "bXVjaA==",
                "latest_receipt_info": [receipt],
                "pending_renewal_info": [
                    ["original_transaction_id": "5000", "product_id": "com.example.yearly", "auto_renew_status": "1"]
                ],
            ],
        ]
        return body.text
    }

    @Test(arguments: [(false, 1), (true, 0)])
    func aV1PlanUpgradedAwayFromIsNotARefund(upgraded: Bool, refunds: Int) throws {
        var s = Scenario()
        s.lines.append(v1Body(app: s.app, cancelled: "2024-03-15T00:00:00Z", upgraded: upgraded))
        let march = try s.run()["2024-03/refunds.csv"] ?? []
        #expect(march.map { Int($0["refunds"] ?? "") ?? 0 }.reduce(0, +) == refunds)
    }

    @Test(arguments: [0, 1, 2, 7])
    func anOrderLookupStatusIsKeptAsSent(status: Int) throws {
        let archive = try TestArchive()
        try archive.write(
            "orders.jsonl", lines: ["{\"orderId\":\"MQ1\",\"status\":\(status),\"signedTransactions\":[]}"])
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == [])
        #expect(try run.count("SELECT status FROM order_lookups") == status)
    }

    @Test func anOrderLookupStatusThatIsNotAnIntegerIsQuarantined() throws {
        let archive = try TestArchive()
        try archive.write(
            "orders.jsonl", lines: ["{\"orderId\":\"MQ1\",\"status\":\"valid\",\"signedTransactions\":[]}"])
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == ["bad_field"])
    }

    /// A refund ring that never sets `appAccountToken` is one Apple Account: its `appTransactionId` links it.
    @Test(arguments: [false, true])
    func refundsWithoutATokenLinkByAppTransactionId(carriesAppTransactionId: Bool) throws {
        var s = Scenario()
        let account = carriesAppTransactionId ? "704556207112847731" : nil
        try s.consumable(
            id: "c1", purchase: "2025-09-01T00:00:00Z", refund: "2025-09-10T00:00:00Z", appTransactionId: account)
        try s.consumable(
            id: "c2", purchase: "2025-09-15T00:00:00Z", refund: "2025-10-02T00:00:00Z", appTransactionId: account)
        try s.consumable(
            id: "c3", purchase: "2025-10-05T00:00:00Z", refund: "2025-10-20T00:00:00Z", appTransactionId: account)
        let csv = try s.run()
        let flagged = (csv["2025-10/flagged_accounts.csv"] ?? []).map { $0["account_id"] ?? "" }
        #expect(flagged == (carriesAppTransactionId ? ["app:704556207112847731"] : []))
        // The evidence is the ring's refunds.
        let evidence = (csv["2025-10/flagged_accounts.csv"] ?? []).first?["evidence"] ?? ""
        #expect(evidence.contains("c2") == carriesAppTransactionId)
    }

    /// The token still wins over the app transaction ID, and an auto-renewable without either stays `sub:`.
    @Test func theTokenComesBeforeTheAppTransactionId() throws {
        var s = Scenario()
        let token = "cccccccc-0000-4000-8000-00000000000c"
        for (index, day) in ["01", "05", "09"].enumerated() {
            try s.consumable(
                id: "t\(index)", purchase: "2025-09-\(day)T00:00:00Z", refund: "2025-09-2\(index)T00:00:00Z",
                token: token, appTransactionId: "704556207112847731")
        }
        let flagged = (try s.run()["2025-09/flagged_accounts.csv"] ?? []).map { $0["account_id"] ?? "" }
        #expect(flagged == [token])
    }

    /// Fields Apple adds (or iaplens does not read) are kept in the store as canonical JSON beside the columns, on
    /// every engine: the notification's (top level and `data`), the transaction's and the renewal info's.
    @Test(arguments: StoreKind.allCases)
    func unknownFieldsAreKeptInTheStore(engine: StoreKind) throws {
        let app = AppFixture()
        let time = Scenario.at("2025-03-01T00:00:00Z")
        var payload = try app.notificationPayload(
            type: "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n-new-fields", signedDate: time,
            transaction: app.transaction(
                id: "t1", original: "t1", purchase: time, expires: time + 86_400_000, price: 9_990, signedDate: time,
                extra: ["offerPeriod": "P1M", "zNewThing": ["nested": true, "list": [1, 2]]]),
            renewal: app.renewal(
                original: "t1", signedDate: time, extra: ["offerPeriod": "P1M", "eligibleWinBackOfferIds": ["w1"]]),
            data: ["newDataField": 7])
        payload = payload.setting("aNewTopField", "x")
        let archive = try TestArchive()
        try archive.write("a.jsonl", lines: [AppFixture.body(try app.sign(payload))])
        let folder = archive.root + "/store-\(engine)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let database = try engine.freshDatabase(in: folder)
        let configuration = try archive.configuration(app) { $0.databasePath = database }
        _ = try Pipeline(configuration: configuration).ingest()
        let store = try StoreLocation(database).open()
        func extra(_ sql: String) throws -> String? { try store.read { try $0.value(sql).text } }
        #expect(
            try extra("SELECT extra_fields FROM notifications") == #"{"aNewTopField":"x","data":{"newDataField":7}}"#)
        #expect(
            try extra("SELECT extra_fields FROM transaction_versions")
                == #"{"offerPeriod":"P1M","zNewThing":{"list":[1,2],"nested":true}}"#)
        #expect(
            try extra("SELECT extra_fields FROM renewal_infos")
                == #"{"eligibleWinBackOfferIds":["w1"],"offerPeriod":"P1M"}"#)
        // A payload with nothing new stores nothing extra.
        let plain = try TestArchive()
        try plain.write(
            "b.jsonl",
            lines: [
                try app.notification(
                    type: "ONE_TIME_CHARGE", uuid: "n-plain", signedDate: time,
                    transaction: app.transaction(
                        id: "c1", original: "c1", product: "com.example.coins", type: "Consumable", purchase: time,
                        price: 990, signedDate: time))
            ])
        let plainFolder = plain.root + "/store-\(engine)"
        try FileManager.default.createDirectory(atPath: plainFolder, withIntermediateDirectories: true)
        let plainDatabase = try engine.freshDatabase(in: plainFolder)
        _ = try Pipeline(configuration: try plain.configuration(app) { $0.databasePath = plainDatabase }).ingest()
        let plainStore = try StoreLocation(plainDatabase).open()
        #expect(
            try plainStore.read {
                try $0.integer("SELECT count(*) FROM transaction_versions WHERE extra_fields IS NULL")
            } == 1)
    }

    /// A Get Transaction History page has the refund page's `signedTransactions` but names its app: it is its own
    /// kind, and its transactions are not labelled as refund lookups.
    @Test func aTransactionHistoryPageIsNotARefundLookup() throws {
        let app = AppFixture()
        let time = Scenario.at("2025-03-01T00:00:00Z")
        let bought = app.transaction(
            id: "c1", product: "com.example.coins", type: "Consumable", purchase: time, price: 990, signedDate: time)
        let history = JSONValue.object(
            JSONObject([
                ("revision", .string("r1")), ("bundleId", .string(app.bundleId)), ("appAppleId", .int(app.appAppleId)),
                ("environment", .string("Production")), ("hasMore", .bool(false)),
                ("signedTransactions", .array([.string(try app.sign(bought))])),
            ])
        ).text
        let archive = try TestArchive()
        try archive.write(
            "history.jsonl",
            lines: [history, try app.refundPage([bought.setting("revocationDate", .int(time + 1000))])])
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == [])
        #expect(try run.count("SELECT count(*) FROM documents WHERE kind = 'transaction_history_entry'") == 1)
        #expect(try run.count("SELECT count(*) FROM documents WHERE kind = 'refund_history_entry'") == 1)
        #expect(try run.count("SELECT count(*) FROM transaction_versions WHERE source = 'transaction_history'") == 1)
        #expect(try run.count("SELECT count(*) FROM transaction_versions WHERE source = 'refund_history'") == 1)
    }
}
