import IAPAnalytics
import IAPStore
import IAPTestSupport
import Testing

@Suite("churn.csv and expiration_intents.csv")
struct ChurnTests {
    /// A monthly subscription s1: t1 bought on Jan 1 (expires Feb 1).
    let t1 = Txn.subscription("t1", original: "s1", purchase: at("2026-01-01"), expires: at("2026-02-01"))

    @Test func refundEndingTheSubscriptionIsRefundedInTheRevocationMonth() throws {
        // Given t1 refunded on Jan 20 with no later purchase
        let scenario = try Scenario()
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        scenario.notify("REFUND", at: at("2026-01-20"), t1.revoked(at: at("2026-01-20")))
        scenario.notify(
            "DID_RENEW", at: at("2026-06-01"),
            Txn.subscription("x", original: "other", purchase: at("2026-06-01"), expires: at("2026-07-01")))
        // When
        let report = try scenario.report()
        // Then rule 1: refunded, in January (not February, the expiry month), not in expiration_intents
        #expect(report.allRows("churn.csv") == [["2026-01", "pro.monthly", "voluntary", "refunded", "1"]])
        #expect(report.allRows("expiration_intents.csv").isEmpty)
    }

    @Test func refundAfterARenewalDoesNotEndTheSubscription() throws {
        // Given t1 renewed by t2 on Feb 1, and t1 refunded later (Feb 10); t2 still active at T
        let scenario = try Scenario()
        let t2 = Txn.subscription("t2", original: "s1", purchase: at("2026-02-01"), expires: at("2026-03-01"))
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        scenario.notify("DID_RENEW", at: at("2026-02-01"), t2, renewal: Renewal(original: "s1"))
        scenario.notify("REFUND", at: at("2026-02-10"), t1.revoked(at: at("2026-02-10")))
        // When
        let report = try scenario.report()
        // Then no churn: a transaction was purchased between t1's purchase and its revocation
        #expect(report.allRows("churn.csv").isEmpty)
        #expect(report.rows("2026-02", "refunds.csv").count == 1)
    }

    @Test func refundFollowedByAResubscriptionIsStillRefunded() throws {
        // Given t1 refunded on Jan 20, and the customer subscribes again on Mar 5
        let scenario = try Scenario()
        let t2 = Txn.subscription("t2", original: "s1", purchase: at("2026-03-05"), expires: at("2026-04-05"))
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        scenario.notify("REFUND", at: at("2026-01-20"), t1.revoked(at: at("2026-01-20")))
        scenario.notify("SUBSCRIBED", subtype: "RESUBSCRIBE", at: at("2026-03-05"), t2)
        // When
        let report = try scenario.report()
        // Then t1 churned by refund in January; t2 is active
        #expect(report.allRows("churn.csv") == [["2026-01", "pro.monthly", "voluntary", "refunded", "1"]])
    }

    @Test(
        arguments: [
            ("VOLUNTARY", nil, "voluntary", "customer_canceled", "1"),
            ("PRICE_INCREASE", nil, "voluntary", "price_increase_declined", "3"),
            ("BILLING_RETRY", nil, "involuntary", "billing_error", "2"),
            ("PRODUCT_NOT_FOR_SALE", nil, "other", "product_unavailable", "4"),
            (nil, 3, "voluntary", "price_increase_declined", "3"),
            (nil, nil, "other", "unknown", "5"),
            ("VOLUNTARY", 1, "voluntary", "customer_canceled", "1"),
        ] as [(String?, Int64?, String, String, String)])
    func expiredSubtypeThenIntent(
        subtype: String?, intent: Int64?, churnType: String, reason: String, expirationIntent: String
    ) throws {
        // Given an EXPIRED notification for t1 with a subtype (or none) and a renewal-info intent
        let scenario = try Scenario()
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        scenario.notify(
            "EXPIRED", subtype: subtype, at: at("2026-02-01"), t1,
            renewal: Renewal(original: "s1", autoRenew: false, intent: intent))
        // When
        let report = try scenario.report()
        // Then the reason follows rule 2, in the month of t1's expiry
        #expect(report.allRows("churn.csv") == [["2026-02", "pro.monthly", churnType, reason, "1"]])
        #expect(report.allRows("expiration_intents.csv") == [["2026-02", "pro.monthly", expirationIntent, "1"]])
    }

    @Test func inferredCustomerCanceledFromAutoRenewOff() throws {
        // Given no EXPIRED (lost) and a renewal state with auto-renew off before T
        let scenario = try Scenario()
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        scenario.notify(
            "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", at: at("2026-01-10"), t1,
            renewal: Renewal(original: "s1", autoRenew: false))
        scenario.notify(
            "DID_RENEW", at: at("2026-02-15"),
            Txn.subscription("x", original: "other", purchase: at("2026-02-15"), expires: at("2026-03-15")))
        // When
        let report = try scenario.report()
        // Then
        #expect(report.allRows("churn.csv") == [["2026-02", "pro.monthly", "voluntary", "customer_canceled", "1"]])
        #expect(report.allRows("expiration_intents.csv") == [["2026-02", "pro.monthly", "1", "1"]])
    }

    @Test(arguments: [(59, false), (60, true)])
    func inferredBillingRetryNeedsSixtyDays(daysAfterExpiry: Int64, isChurn: Bool) throws {
        // Given t1 in billing retry (Apple already sets intent 2) and T some days after its expiry
        let scenario = try Scenario()
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        scenario.notify(
            "DID_FAIL_TO_RENEW", at: at("2026-02-01"), t1,
            renewal: Renewal(original: "s1", intent: 2, billingRetry: true))
        scenario.notify(
            "DID_RENEW", at: at("2026-02-01") + daysAfterExpiry * day,
            Txn.subscription("x", original: "other", purchase: at("2026-02-01"), expires: at("2026-09-01")))
        // When
        let report = try scenario.report()
        // Then under 60 days the episode is pending (no churn); from 60 days on it is billing_error
        #expect(
            report.allRows("churn.csv")
                == (isChurn ? [["2026-02", "pro.monthly", "involuntary", "billing_error", "1"]] : []))
        #expect(
            report.allRows("billing_retry.csv") == [
                ["2026-02", "pro.monthly", "1", "0", "0", isChurn ? "1" : "0", isChurn ? "0" : "1"]
            ])
    }

    @Test func noRenewalStateIsUnknownOnlyAfterSixtyDays() throws {
        // Given two subscriptions without any renewal state: one expired 61 days before T, one 10 days
        let scenario = try Scenario()
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        let late = Txn.subscription(
            "u1", original: "s2", product: "pro.yearly", purchase: at("2026-02-20"), expires: at("2026-03-24"))
        scenario.notify("SUBSCRIBED", at: at("2026-02-20"), late)
        scenario.notify(
            "DID_RENEW", at: at("2026-04-03"),
            Txn.subscription("x", original: "other", purchase: at("2026-04-01"), expires: at("2026-09-01")))
        // When
        let report = try scenario.report()
        // Then only t1 churns, as unknown with intent 5
        #expect(report.allRows("churn.csv") == [["2026-02", "pro.monthly", "other", "unknown", "1"]])
        #expect(report.allRows("expiration_intents.csv") == [["2026-02", "pro.monthly", "5", "1"]])
    }

    @Test func freeTrialEndingIsNotChurn() throws {
        // Given a free trial that expired with auto-renew off
        let scenario = try Scenario()
        let trial = t1.freeTrial()
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), trial)
        scenario.notify(
            "EXPIRED", subtype: "VOLUNTARY", at: at("2026-02-01"), trial,
            renewal: Renewal(original: "s1", autoRenew: false, intent: 1))
        // When
        let report = try scenario.report()
        // Then nothing to count: no churn, no sale
        #expect(report.allRows("churn.csv").isEmpty)
        #expect(report.allRows("reconciliation.csv").isEmpty)
    }

    @Test func resubscribeAfterChurnCountsTheChurn() throws {
        // Given t1 expired voluntarily on Feb 1, and the customer came back on May 10
        let scenario = try Scenario()
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        scenario.notify(
            "EXPIRED", subtype: "VOLUNTARY", at: at("2026-02-01"), t1,
            renewal: Renewal(original: "s1", autoRenew: false, intent: 1))
        let t2 = Txn.subscription("t2", original: "s1", purchase: at("2026-05-10"), expires: at("2026-06-10"))
        scenario.notify(
            "SUBSCRIBED", subtype: "RESUBSCRIBE", at: at("2026-05-10"), t2, renewal: Renewal(original: "s1"))
        // When
        let report = try scenario.report()
        // Then one churn in February, none for the active t2
        #expect(report.allRows("churn.csv") == [["2026-02", "pro.monthly", "voluntary", "customer_canceled", "1"]])
        // And a late return without EXPIRED is inferred from the newest renewal state before E
        #expect(report.monthNames == ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05"])
    }

    @Test func inferenceUsesTheNewestRenewalStateBeforeTheNextPurchase() throws {
        // Given V1 history: t1 expired Feb 1; auto-renew was turned off on Jan 15 (V1 pending_renewal_info),
        // the customer resubscribed on Apr 1 (E), and a renewal state after E says auto-renew on
        let scenario = try Scenario()
        let v1t1 = Txn.v1(
            "t1", original: "s1", product: "pro.monthly", purchase: at("2026-01-01"), expires: at("2026-02-01"))
        let v1t2 = Txn.v1(
            "t2", original: "s1", product: "pro.monthly", purchase: at("2026-04-01"), expires: at("2026-05-01"))
        try scenario.products([("pro.monthly", "auto_renewable", "EUR", 4_990)])
        scenario.notifyV1(
            "DID_CHANGE_RENEWAL_STATUS", at: at("2026-01-15"), original: "s1", transactions: [v1t1],
            renewals: [Renewal(original: "s1", autoRenew: false)])
        scenario.notifyV1(
            "INTERACTIVE_RENEWAL", at: at("2026-04-01"), original: "s1", transactions: [v1t1, v1t2],
            renewals: [Renewal(original: "s1", autoRenew: true)])
        // When
        let report = try scenario.report()
        // Then customer_canceled in February
        #expect(report.allRows("churn.csv") == [["2026-02", "pro.monthly", "voluntary", "customer_canceled", "1"]])
    }

    /// V1 bodies without `receivedAt` take the time of their latest date, so a `DID_FAIL_TO_RENEW` body ties with the
    /// renewal it came after. The tie went to the greater document ID, a hash in real stores: billing_error or unknown
    /// by chance. Now the state that says more of an end wins, whichever ID is greater, on both engines.
    @Test(arguments: StoreKind.allCases.flatMap { engine in [(engine, true), (engine, false)] })
    func aTieInTimeGoesToTheStateThatSaysMoreOfAnEnd(engine: StoreKind, failureFirst: Bool) throws {
        // Given t1 (V1) renewed and then failing to renew, both bodies dated by t1's purchase, and T 73 days after expiry
        let scenario = try Scenario(engine: try engine.freshStore())
        try scenario.products([("pro.monthly", "auto_renewable", "EUR", 4_990)])
        let v1t1 = Txn.v1(
            "t1", original: "s1", product: "pro.monthly", purchase: at("2026-01-01"), expires: at("2026-02-01"))
        let renewed = {
            scenario.notifyV1(
                "DID_RENEW", at: at("2026-01-01"), original: "s1", transactions: [v1t1],
                renewals: [Renewal(original: "s1", autoRenew: true)])
        }
        let failed = {
            scenario.notifyV1(
                "DID_FAIL_TO_RENEW", at: at("2026-01-01"), original: "s1", transactions: [v1t1],
                renewals: [Renewal(original: "s1", intent: 2, billingRetry: true)])
        }
        if failureFirst { _ = failed(); _ = renewed() } else { _ = renewed(); _ = failed() }
        scenario.notify(
            "DID_RENEW", at: at("2026-04-15"),
            Txn.subscription("x", original: "other", purchase: at("2026-04-01"), expires: at("2026-09-01")))
        // When
        let report = try scenario.report()
        // Then the billing retry decides: involuntary, intent 2
        #expect(report.allRows("churn.csv") == [["2026-02", "pro.monthly", "involuntary", "billing_error", "1"]])
        #expect(report.allRows("expiration_intents.csv") == [["2026-02", "pro.monthly", "2", "1"]])
    }

    @Test func sandboxAndTestNotificationsAreExcluded() throws {
        // Given a Production churn, a Sandbox one and a TEST notification
        let scenario = try Scenario()
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        scenario.notify(
            "EXPIRED", subtype: "VOLUNTARY", at: at("2026-02-01"), t1,
            renewal: Renewal(original: "s1", autoRenew: false))
        let sandbox = Txn.subscription("sb1", original: "sbs1", purchase: at("2026-01-01"), expires: at("2026-02-01"))
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), sandbox, environment: "Sandbox")
        scenario.notify("EXPIRED", subtype: "BILLING_RETRY", at: at("2026-02-01"), sandbox, environment: "Sandbox")
        scenario.notify("TEST", at: at("2026-09-01"))
        // When
        let report = try scenario.report()
        // Then only Production counts, and T ignores the TEST notification
        #expect(report.allRows("churn.csv") == [["2026-02", "pro.monthly", "voluntary", "customer_canceled", "1"]])
        #expect(report.monthNames == ["2026-01", "2026-02"])
        #expect(report.dataQuality.otherEnvironments == [ReasonCount(label: "Sandbox", count: 2)])
        #expect(report.dataQuality.testNotifications == 1)
    }

    @Test func sandboxEnvironmentCountsOnlySandbox() throws {
        // Given the same data analyzed for Sandbox
        let scenario = try Scenario()
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        let sandbox = Txn.subscription("sb1", original: "sbs1", purchase: at("2026-03-01"), expires: at("2026-04-01"))
        scenario.notify("SUBSCRIBED", at: at("2026-03-01"), sandbox, environment: "Sandbox")
        // When
        let report = try scenario.report(AnalysisOptions(environment: "Sandbox", bundleId: "com.example.app"))
        // Then only the Sandbox sale
        #expect(
            report.allRows("reconciliation.csv") == [
                ["2026-03", "USD", "auto_renewable", "1", "9990", "0", "0", "9990", "6993", "0", "0", "0"]
            ])
    }
}
