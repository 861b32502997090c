import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Testing

/// V1 archives and the V1 → V2 migration.
@Suite struct MigrationScenarioTests {
    static func v1Body(
        type: String, transactions: [JSONValue], autoRenew: String, intent: String? = nil, retry: String? = nil,
        app: AppFixture = AppFixture()
    ) -> String {
        var pending: JSONValue = [
            "original_transaction_id": "500", "product_id": "com.example.monthly",
            "auto_renew_status": .string(autoRenew == "true" ? "1" : "0"),
        ]
        if let intent { pending = pending.setting("expiration_intent", .string(intent)) }
        if let retry { pending = pending.setting("is_in_billing_retry_period", .string(retry)) }
        let body: JSONValue = [
            "notification_type": .string(type), "environment": "PROD", "bid": .string(app.bundleId),
            "auto_renew_status": .string(autoRenew),
            "original_transaction_id": "500",
            "unified_receipt": [
                "status": 0, "environment": "Production", "latest_receipt": "eA==",
                "latest_receipt_info": .array(transactions), "pending_renewal_info": [pending],
            ],
        ]
        return body.text
    }

    static func v1Transaction(_ id: String, purchase: String, expires: String) -> JSONValue {
        [
            "transaction_id": .string(id), "original_transaction_id": "500", "product_id": "com.example.monthly",
            "quantity": "1",
            "purchase_date_ms": .string(String(Scenario.at(purchase))),
            "original_purchase_date_ms": .string(String(Scenario.at("2022-11-01T00:00:00Z"))),
            "expires_date_ms": .string(String(Scenario.at(expires))), "is_trial_period": "false",
        ]
    }

    func catalog(_ archive: TestArchive) throws -> String {
        let path = archive.root + "/products.csv"
        try "product_id,type,currency,price_milli\ncom.example.monthly,Auto-Renewable Subscription,USD,9990\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The V1 body of subscription 500's first purchase, 2022-11-01 to 2022-12-01, set to renew.
    static let initialBuy500 = v1Body(
        type: "INITIAL_BUY",
        transactions: [v1Transaction("500", purchase: "2022-11-01T00:00:00Z", expires: "2022-12-01T00:00:00Z")],
        autoRenew: "true")

    @Test func oneSubscriptionContinuesFromV1ReceiptsIntoV2Notifications() throws {
        var s = Scenario()
        s.lines.append(Self.initialBuy500)
        s.lines.append(
            Self.v1Body(
                type: "DID_RENEW",
                transactions: [
                    Self.v1Transaction("501", purchase: "2022-12-01T00:00:00Z", expires: "2023-01-01T00:00:00Z"),
                    Self.v1Transaction("500", purchase: "2022-11-01T00:00:00Z", expires: "2022-12-01T00:00:00Z"),
                ], autoRenew: "true"))
        // After the migration Apple sends V2 for the same originalTransactionId.
        try s.period(
            "DID_RENEW", uuid: "v2-1", id: "502", original: "500", purchase: "2023-01-01T00:00:00Z",
            expires: "2023-02-01T00:00:00Z", originalPurchase: "2022-11-01T00:00:00Z")
        try s.period(
            "EXPIRED", subtype: "VOLUNTARY", uuid: "v2-2", id: "502", original: "500", purchase: "2023-01-01T00:00:00Z",
            expires: "2023-02-01T00:00:00Z",
            signed: "2023-02-01T00:00:01Z", originalPurchase: "2022-11-01T00:00:00Z",
            renewal: ["autoRenewStatus": 0, "expirationIntent": 1])
        let archive = try TestArchive()
        try archive.write("mixed.jsonl", lines: s.lines)
        let configuration = try archive.configuration { $0.productsPath = try? catalog(archive) }
        _ = try Pipeline(configuration: configuration).run()
        // The V1 periods did not churn (each was followed by the next); only the V2 expiry did.
        for month in ["2022-12", "2023-01"] {
            #expect(CSVReader.records(try archive.report("\(month)/churn.csv")).isEmpty, "\(month)")
        }
        #expect(
            CSVReader.records(try archive.report("2023-02/churn.csv")).map { $0["reason"] } == ["customer_canceled"])
        // V1 sales priced from the catalog, V2 from the transaction.
        #expect(CSVReader.records(try archive.report("2022-11/reconciliation.csv")).first?["gross_milli"] == "9990")
        #expect(CSVReader.records(try archive.report("2023-01/reconciliation.csv")).first?["gross_milli"] == "9990")
    }

    @Test func aV1ChurnFollowedByAResubscribe() throws {
        var s = Scenario()
        s.lines.append(Self.initialBuy500)
        // Auto-renew turned off, then (no EXPIRED in V1) nothing until a resubscribe three months later.
        s.lines.append(
            try AppFixture.envelope(
                receivedAt: "2022-11-20T00:00:00Z",
                body: Self.v1Body(
                    type: "DID_CHANGE_RENEWAL_STATUS",
                    transactions: [
                        Self.v1Transaction("500", purchase: "2022-11-01T00:00:00Z", expires: "2022-12-01T00:00:00Z")
                    ],
                    autoRenew: "false", intent: "1")))
        s.lines.append(
            Self.v1Body(
                type: "INTERACTIVE_RENEWAL",
                transactions: [
                    Self.v1Transaction("503", purchase: "2023-03-01T00:00:00Z", expires: "2023-04-01T00:00:00Z"),
                    Self.v1Transaction("500", purchase: "2022-11-01T00:00:00Z", expires: "2022-12-01T00:00:00Z"),
                ], autoRenew: "true"))
        let result = try s.run()
        #expect(result["2022-11/churn.csv"]?.map { [$0["churn_type"], $0["reason"]] } ?? [] == [])
        #expect(
            result["2022-12/churn.csv"]?.map { [$0["churn_type"], $0["reason"]] } == [
                ["voluntary", "customer_canceled"]
            ])
        #expect(result["2023-03/reconciliation.csv"]?.first?["sales"] == "1")
        #expect(result["2023-03/reconciliation.csv"]?.first?["currency"] == "XXX")  // no catalog: unpriced
    }
}
