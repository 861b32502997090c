import IAPAnalytics
import IAPStore
import Testing

@Suite("billing_retry.csv")
struct BillingRetryTests {
    let t1 = Txn.subscription("t1", original: "s1", purchase: at("2026-01-01"), expires: at("2026-02-01"))

    /// A failed renewal of t1 on Feb 1 with a 16-day grace period, then (optionally) a recovery.
    func scenario(recoveredOn recovery: String?, asOf: String) throws -> ReportSet {
        let scenario = try Scenario()
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        scenario.notify(
            "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", at: at("2026-02-01"), t1,
            renewal: Renewal(original: "s1", intent: 2, billingRetry: true, grace: at("2026-02-17")))
        // A second failure notification for the same period does not start a second episode.
        scenario.notify(
            "DID_FAIL_TO_RENEW", at: at("2026-02-05"), t1,
            renewal: Renewal(original: "s1", intent: 2, billingRetry: true))
        if let recovery {
            let t2 = Txn.subscription("t2", original: "s1", purchase: at(recovery), expires: at(recovery) + 30 * day)
            scenario.notify("DID_RENEW", subtype: "BILLING_RECOVERY", at: at(recovery), t2)
        }
        return try scenario.report(AnalysisOptions(bundleId: "com.example.app", asOf: at(asOf)))
    }

    @Test func recoveredInsideGrace() throws {
        let report = try scenario(recoveredOn: "2026-02-10", asOf: "2026-03-10")
        #expect(report.allRows("billing_retry.csv") == [["2026-02", "pro.monthly", "1", "1", "1", "0", "0"]])
        #expect(report.allRows("churn.csv").isEmpty)
    }

    @Test func recoveredAfterGraceWithinSixtyDays() throws {
        // 2026-02-01 + 60 days = 2026-04-02
        let report = try scenario(recoveredOn: "2026-04-02", asOf: "2026-06-01")
        #expect(report.allRows("billing_retry.csv") == [["2026-02", "pro.monthly", "1", "1", "0", "0", "0"]])
    }

    @Test func expiredWhenNotRecoveredWithinSixtyDays() throws {
        let report = try scenario(recoveredOn: "2026-04-03", asOf: "2026-06-01")
        #expect(report.allRows("billing_retry.csv") == [["2026-02", "pro.monthly", "1", "0", "0", "1", "0"]])
        #expect(report.allRows("churn.csv") == [["2026-02", "pro.monthly", "involuntary", "billing_error", "1"]])
    }

    @Test func pendingAtT() throws {
        let report = try scenario(recoveredOn: nil, asOf: "2026-03-01")
        #expect(report.allRows("billing_retry.csv") == [["2026-02", "pro.monthly", "1", "0", "0", "0", "1"]])
        #expect(report.allRows("churn.csv").isEmpty)
    }

    @Test func v1EpisodeUsesTheLatestExpiringTransactionOfTheBody() throws {
        // Given a V1 DID_FAIL_TO_RENEW body carrying two periods of s1 and a pending_renewal_info in billing retry
        let scenario = try Scenario()
        try scenario.products([("pro.monthly", "auto_renewable", "USD", 9_990)])
        let a = Txn.v1(
            "a", original: "s1", product: "pro.monthly", purchase: at("2026-01-01"), expires: at("2026-02-01"))
        let b = Txn.v1(
            "b", original: "s1", product: "pro.monthly", purchase: at("2026-02-01"), expires: at("2026-03-01"))
        scenario.notifyV1(
            "DID_FAIL_TO_RENEW", at: at("2026-03-01"), original: "s1", transactions: [a, b],
            renewals: [Renewal(original: "s1", autoRenew: true, intent: 2, billingRetry: true, grace: at("2026-03-07"))]
        )
        let c = Txn.v1(
            "c", original: "s1", product: "pro.monthly", purchase: at("2026-03-05"), expires: at("2026-04-05"))
        scenario.notifyV1(
            "DID_RECOVER", at: at("2026-03-05"), original: "s1", transactions: [a, b, c],
            renewals: [Renewal(original: "s1")])
        // When
        let report = try scenario.report()
        // Then one episode for b (expiring in March), recovered in grace
        #expect(report.allRows("billing_retry.csv") == [["2026-03", "pro.monthly", "1", "1", "1", "0", "0"]])
    }
}
