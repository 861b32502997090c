import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Testing

/// Documentation/Reports.md's definitions and edge cases, each pinned by a small timeline signed for real and run
/// through ingest → analyze → report. The SQL models have finer-grained tests of their own.
@Suite struct DefinitionScenarioTests {
    static let monthly = "com.example.monthly"

    /// A monthly subscription bought on 2025-01-10 (`t1`) and renewed on 2025-02-10 (`t2`), to 2025-03-10.
    static func subscribedAndRenewed() throws -> Scenario {
        var s = Scenario()
        try s.period(
            "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", id: "t1", original: "t1",
            purchase: "2025-01-10T00:00:00Z", expires: "2025-02-10T00:00:00Z")
        try s.period(
            "DID_RENEW", uuid: "n2", id: "t2", original: "t1", purchase: "2025-02-10T00:00:00Z",
            expires: "2025-03-10T00:00:00Z")
        return s
    }

    // MARK: - Churn

    @Test func aRefundThatEndsTheSubscriptionIsRefundedChurnInTheRefundMonth() throws {
        var s = try Self.subscribedAndRenewed()
        try s.period(
            "REFUND", uuid: "n3", id: "t2", original: "t1", purchase: "2025-02-10T00:00:00Z",
            expires: "2025-03-10T00:00:00Z",
            signed: "2025-02-20T00:00:00Z", transaction: ["revocationDate": .int(Scenario.at("2025-02-20T00:00:00Z"))])
        let churn = try s.run()
        #expect(
            churn["2025-02/churn.csv"]?.map { [$0["churn_type"], $0["reason"], $0["subscriptions"]] } == [
                ["voluntary", "refunded", "1"]
            ])
        #expect(churn["2025-03/churn.csv"] == nil || churn["2025-03/churn.csv"] == [])
    }

    @Test func aRefundOfAPeriodAlreadyRenewedIsNotRefundedChurn() throws {
        var s = try Self.subscribedAndRenewed()
        try s.period(
            "REFUND", uuid: "n3", id: "t1", original: "t1", purchase: "2025-01-10T00:00:00Z",
            expires: "2025-02-10T00:00:00Z",
            signed: "2025-02-20T00:00:00Z", transaction: ["revocationDate": .int(Scenario.at("2025-02-20T00:00:00Z"))])
        s.asOf = "2025-03-05T00:00:00Z"
        let result = try s.run()
        let reasons = result.filter { $0.key.hasSuffix("churn.csv") }.flatMap(\.value).compactMap { $0["reason"] }
        #expect(!reasons.contains("refunded"))
        #expect(result["2025-02/refunds.csv"]?.first?["refunds"] == "1")
    }

    @Test(arguments: [
        ("VOLUNTARY", nil as Int64?, "voluntary", "customer_canceled", "1"),
        ("PRICE_INCREASE", nil, "voluntary", "price_increase_declined", "3"),
        ("BILLING_RETRY", nil, "involuntary", "billing_error", "2"),
        ("PRODUCT_NOT_FOR_SALE", nil, "other", "product_unavailable", "4"),
        (nil, 3, "voluntary", "price_increase_declined", "3"),
        (nil, 5, "other", "unknown", "5"),
        (nil, nil, "other", "unknown", "5"),
    ])
    func expiredSubtypesAndIntents(subtype: String?, intent: Int64?, type: String, reason: String, intentColumn: String)
        throws
    {
        var s = Scenario()
        try s.period(
            "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", id: "t1", original: "t1",
            purchase: "2025-01-10T00:00:00Z", expires: "2025-02-10T00:00:00Z")
        try s.period(
            "EXPIRED", subtype: subtype, uuid: "n2", id: "t1", original: "t1", purchase: "2025-01-10T00:00:00Z",
            expires: "2025-02-10T00:00:00Z",
            signed: "2025-02-10T00:00:01Z",
            renewal: ["autoRenewStatus": 0, "expirationIntent": intent.map { .int($0) } ?? nil])
        let result = try s.run()
        #expect(result["2025-02/churn.csv"]?.map { [$0["churn_type"], $0["reason"]] } == [[type, reason]])
        #expect(result["2025-02/expiration_intents.csv"]?.map { $0["expiration_intent"] } == [intentColumn])
    }

    @Test func withoutExpiredBillingRetryIsChurnOnlyAfterSixtyDays() throws {
        var s = Scenario()
        try s.period(
            "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", id: "t1", original: "t1",
            purchase: "2025-01-10T00:00:00Z", expires: "2025-02-10T00:00:00Z")
        try s.period(
            "DID_FAIL_TO_RENEW", uuid: "n2", id: "t1", original: "t1", purchase: "2025-01-10T00:00:00Z",
            expires: "2025-02-10T00:00:00Z",
            signed: "2025-02-10T00:00:01Z", renewal: ["isInBillingRetryPeriod": true, "expirationIntent": 2])
        s.asOf = "2025-04-10T00:00:00Z"  // 59 days after expiry: still retrying, no churn yet
        #expect(try s.run()["2025-02/churn.csv"] ?? [] == [])
        s.asOf = "2025-04-11T00:00:00Z"  // 60 days: the episode ended without recovery
        #expect(try s.run()["2025-02/churn.csv"]?.map { $0["reason"] } == ["billing_error"])
    }

    @Test func resubscribingAfterChurnKeepsTheChurnAndCountsTheNewSale() throws {
        var s = Scenario()
        try s.period(
            "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", id: "t1", original: "t1",
            purchase: "2025-01-10T00:00:00Z", expires: "2025-02-10T00:00:00Z")
        try s.period(
            "EXPIRED", subtype: "VOLUNTARY", uuid: "n2", id: "t1", original: "t1", purchase: "2025-01-10T00:00:00Z",
            expires: "2025-02-10T00:00:00Z",
            signed: "2025-02-10T00:00:01Z", renewal: ["autoRenewStatus": 0, "expirationIntent": 1])
        try s.period(
            "SUBSCRIBED", subtype: "RESUBSCRIBE", uuid: "n3", id: "t2", original: "t1",
            purchase: "2025-05-01T00:00:00Z", expires: "2025-06-01T00:00:00Z")
        let result = try s.run()
        #expect(result["2025-02/churn.csv"]?.map { $0["reason"] } == ["customer_canceled"])
        #expect(result["2025-05/reconciliation.csv"]?.first?["sales"] == "1")
    }

    // MARK: - Billing retry

    @Test(arguments: [
        ("2025-02-20T00:00:00Z" as String?, nil as String?, "1", "1", "0", "0"),  // recovered inside grace (ends 02-26)
        ("2025-03-20T00:00:00Z", nil, "1", "0", "0", "0"),  // recovered after grace, within 60 days
        (nil, "2025-04-11T00:00:00Z", "0", "0", "1", "0"),  // retry ran out: EXPIRED/BILLING_RETRY
        (nil, nil, "0", "0", "0", "1"),  // still pending at T
    ])
    func billingRetryOutcomes(
        recovery: String?, expiry: String?, recovered: String, inGrace: String, expired: String, pending: String
    ) throws {
        var s = Scenario()
        try s.period(
            "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", id: "t1", original: "t1",
            purchase: "2025-01-10T00:00:00Z", expires: "2025-02-10T00:00:00Z")
        try s.period(
            "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", uuid: "n2", id: "t1", original: "t1",
            purchase: "2025-01-10T00:00:00Z", expires: "2025-02-10T00:00:00Z",
            signed: "2025-02-10T00:00:01Z",
            renewal: [
                "isInBillingRetryPeriod": true, "expirationIntent": 2,
                "gracePeriodExpiresDate": .int(Scenario.at("2025-02-26T00:00:00Z")),
            ])
        if let recovery {
            try s.period(
                "DID_RENEW", subtype: "BILLING_RECOVERY", uuid: "n3", id: "t2", original: "t1", purchase: recovery,
                expires: "2025-06-01T00:00:00Z")
        }
        if let expiry {
            try s.period(
                "EXPIRED", subtype: "BILLING_RETRY", uuid: "n4", id: "t1", original: "t1",
                purchase: "2025-01-10T00:00:00Z", expires: "2025-02-10T00:00:00Z",
                signed: expiry, renewal: ["autoRenewStatus": 0, "expirationIntent": 2])
        }
        s.asOf = "2025-03-01T00:00:00Z"
        if recovery != nil || expiry != nil { s.asOf = nil }
        let row = try #require(try s.run()["2025-02/billing_retry.csv"]?.first)
        #expect(
            [row["episodes"], row["recovered"], row["recovered_in_grace"], row["expired"], row["pending"]] == [
                "1", recovered, inGrace, expired, pending,
            ])
    }

    // MARK: - Refunds and money

    @Test func proratedRefundsRoundAsTheContractSays() throws {
        var s = Scenario()
        try s.consumable(
            id: "c1", purchase: "2025-03-01T00:00:00Z", refund: "2025-03-05T00:00:00Z",
            token: "aaaaaaaa-0000-4000-8000-000000000001", price: 9_990, percentage: 33_333)
        let row = try #require(try s.run()["2025-03/consumable_losses.csv"]?.first)
        #expect(row["refunded_gross_milli"] == "3330")  // (9990 × 33333 + 50000) / 100000
        #expect(row["lost_proceeds_milli"] == "2331")  // (3330 × 70 + 50) / 100
    }

    @Test func aReversedRefundIsNoLongerARefund() throws {
        var s = Scenario()
        try s.consumable(id: "c1", purchase: "2025-03-01T00:00:00Z", refund: "2025-03-05T00:00:00Z")
        let app = s.app
        s.lines.append(
            try app.notification(
                type: "REFUND_REVERSED", uuid: "rev-c1", signedDate: Scenario.at("2025-04-02T00:00:00Z"),
                transaction: app.transaction(
                    id: "c1", product: "com.example.coins", type: "Consumable",
                    purchase: Scenario.at("2025-03-01T00:00:00Z"), price: 4_990,
                    signedDate: Scenario.at("2025-04-02T00:00:00Z"))))
        let result = try s.run()
        #expect(result["2025-03/refunds.csv"] ?? [] == [])
        #expect(result["2025-04/consumable_losses.csv"]?.map { [$0["refunds"], $0["reversed"]] } == [["0", "1"]])
    }

    @Test func aFamilySharedRevokeIsNotARefund() throws {
        var s = Scenario()
        try s.period(
            "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", id: "f1", original: "f1",
            purchase: "2025-01-10T00:00:00Z", expires: "2025-02-10T00:00:00Z",
            transaction: ["inAppOwnershipType": "FAMILY_SHARED"])
        try s.period(
            "REVOKE", uuid: "n2", id: "f1", original: "f1", purchase: "2025-01-10T00:00:00Z",
            expires: "2025-02-10T00:00:00Z", signed: "2025-01-20T00:00:00Z",
            transaction: [
                "inAppOwnershipType": "FAMILY_SHARED", "revocationDate": .int(Scenario.at("2025-01-20T00:00:00Z")),
            ])
        let result = try s.run()
        #expect(result["2025-01/refunds.csv"] ?? [] == [])
        #expect(result["2025-01/reconciliation.csv"]?.allSatisfy { $0["sales"] == "0" } ?? true)
    }

    @Test(arguments: [(365, "8492"), (364, "6993")])
    func proceedsAre85PercentAfterOneYearOfSubscription(days: Int64, proceeds: String) throws {
        var s = Scenario()
        let original = Scenario.at("2024-03-01T00:00:00Z")
        let renewal = original + days * 86_400_000
        let renewalISO = ISO8601Millis.format(renewal)
        try s.period(
            "DID_RENEW", uuid: "n1", id: "t9", original: "t1", purchase: renewalISO,
            expires: ISO8601Millis.format(renewal + 30 * 86_400_000),
            originalPurchase: "2024-03-01T00:00:00Z")
        let month = String(renewalISO.prefix(7))
        #expect(try s.run()["\(month)/reconciliation.csv"]?.first?["est_proceeds_milli"] == proceeds)
    }

    @Test func smallBusinessProgramIs85PercentOnEverything() throws {
        var s = Scenario()
        try s.consumable(id: "c1", purchase: "2025-03-01T00:00:00Z", price: 1_000)
        s.smallBusiness = true
        #expect(try s.run()["2025-03/reconciliation.csv"]?.first?["est_proceeds_milli"] == "850")
    }

    @Test func sandboxDocumentsAreNeverCounted() throws {
        var s = Scenario()
        try s.consumable(id: "p1", purchase: "2025-03-01T00:00:00Z", refund: "2025-03-02T00:00:00Z")
        try s.consumable(
            id: "s1", purchase: "2025-03-01T00:00:00Z", refund: "2025-03-02T00:00:00Z", environment: "Sandbox")
        let result = try s.run()
        #expect(result["2025-03/refunds.csv"]?.first?["refunds"] == "1")
        #expect(result["2025-03/reconciliation.csv"]?.first?["sales"] == "1")
    }
}
