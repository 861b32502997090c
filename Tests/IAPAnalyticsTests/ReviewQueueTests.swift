import Foundation
import IAPAnalytics
import IAPStore
import IAPTestSupport
import Testing

/// The review queue (Documentation/Reports.md "The review queue"): what is new, what costs the most, and decisions
/// remembered. Before: 100 accounts a month sorted by ID, nothing saying which were new or already cleared.
@Suite struct ReviewQueueTests {
    private func buyAndRefund(_ scenario: Scenario, _ id: String, token: String, bought: String, refunded: String) {
        let coins = Txn.consumable(id, purchase: at(bought), price: 4_990, token: token)
        scenario.notify("ONE_TIME_CHARGE", at: at(bought), coins)
        scenario.notify("REFUND", at: at(refunded), coins.revoked(at: at(refunded)))
    }

    private func queue(_ report: ReportSet, _ month: String, _ account: String) -> [String]? {
        guard let row = report.rows(month, "flagged_accounts.csv").first(where: { $0[0] == account }) else {
            return nil
        }
        return Array(row[11...])
    }

    @Test(arguments: StoreKind.allCases)
    func newThenCarriedThenClearedThenBackAsActive(engine: StoreKind) throws {
        let scenario = try Scenario(engine: try engine.freshStore())
        for (index, day) in ["2026-01-05", "2026-01-08", "2026-01-12"].enumerated() {
            buyAndRefund(scenario, "a\(index)", token: "acct-1", bought: day, refunded: day)
        }
        // Cleared in February; a new refund in March, after the review.
        try ReferenceWriter(store: scenario.engine).replaceReviews([
            AccountReviewReference(
                line: 2, accountId: "acct-1", decision: "cleared", reviewedAtMs: at("2026-02-15"), reviewer: "kim",
                note: "friendly fraud, refunded once")
        ])
        buyAndRefund(scenario, "a9", token: "acct-1", bought: "2026-03-10", refunded: "2026-03-11")
        let report = try scenario.report()
        #expect(queue(report, "2026-01", "acct-1") == ["new", "2026-01", "14970", "USD", ""])
        #expect(queue(report, "2026-02", "acct-1") == ["carried", "2026-01", "14970", "USD", "cleared"])
        #expect(queue(report, "2026-03", "acct-1") == ["active", "2026-01", "19960", "USD", "cleared"])
        // A month asked for alone (`--month`) has the same queue: the account was flagged in January whichever months
        // are written. Before, February and March alone read "new", first flagged in the month asked for.
        for month in ["2026-02", "2026-03"] {
            let alone = try scenario.report(AnalysisOptions(bundleId: "com.example.app", months: [month]))
            #expect(alone.rows(month, "flagged_accounts.csv") == report.rows(month, "flagged_accounts.csv"), "\(month)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aConfirmedAccountIsDeclinedAfterItsRulesLapse(engine: StoreKind) throws {
        let scenario = try Scenario(engine: try engine.freshStore())
        for (index, day) in ["2026-01-05", "2026-01-08", "2026-01-12"].enumerated() {
            buyAndRefund(scenario, "b\(index)", token: "acct-2", bought: day, refunded: day)
        }
        // Four more purchases bring the lifetime rate under 50 %; by June the window holds no refund.
        for (index, day) in ["2026-02-01", "2026-02-02", "2026-02-03", "2026-02-04"].enumerated() {
            scenario.notify(
                "ONE_TIME_CHARGE", at: at(day), Txn.consumable("p\(index)", purchase: at(day), token: "acct-2"))
        }
        let asked = Txn.consumable("q1", purchase: at("2026-06-01"), token: "acct-2")
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-06-01"), asked)
        scenario.notify("CONSUMPTION_REQUEST", at: at("2026-06-02"), asked)
        try ReferenceWriter(store: scenario.engine).replaceReviews([
            AccountReviewReference(
                line: 2, accountId: "acct-2", decision: "confirmed", reviewedAtMs: at("2026-01-20"), reviewer: "lee",
                note: "ring")
        ])
        let report = try scenario.report()
        let request = try #require(report.rows("2026-06", "consumption_requests.csv").first)
        #expect(request[4] == "confirmed_by_review", "\(request)")
        // Without the review the same request meets no rule.
        try ReferenceWriter(store: scenario.engine).replaceReviews([])
        let plain = try scenario.report()
        #expect(plain.rows("2026-06", "consumption_requests.csv").first?[4] == "")
    }
}
