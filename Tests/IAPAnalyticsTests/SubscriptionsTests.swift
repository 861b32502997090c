import Foundation
import IAPAnalytics
import IAPStore
import IAPTestSupport
import Testing

@Suite("subscriptions.csv")
struct SubscriptionsTests {
    /// Both engines: the first paid period is found by one grouping pass and a lookup (int_subscription_base), and a
    /// tie at the first instant must resolve the same way on each.
    static let engines: [StoreKind] = StoreKind.allCases

    @Test(arguments: engines, [("t1", "t9"), ("t9", "t1")] as [(String, String)])
    func twoPaidPeriodsAtTheFirstInstantCountOnceUnderTheLeastTransactionID(
        engine: StoreKind, ids: (String, String)
    ) throws {
        // Given a subscription whose first two paid transactions share their purchase instant, one of each product,
        // and a later subscription that dates the analysis
        let (monthlyID, yearlyID) = ids
        let scenario = try Scenario(engine: try engine.freshStore())
        let start = at("2026-01-05")
        let monthly = Txn.subscription(monthlyID, original: "s1", purchase: start, expires: at("2026-02-05"))
        let yearly = Txn.subscription(
            yearlyID, original: "s1", product: "pro.yearly", purchase: start, expires: at("2027-01-05"))
        scenario.notify("SUBSCRIBED", at: start, monthly)
        scenario.notify("SUBSCRIBED", at: start + 1_000, yearly)
        let later = Txn.subscription("x1", original: "s2", purchase: at("2026-03-01"), expires: at("2026-04-01"))
        scenario.notify("SUBSCRIBED", at: at("2026-03-01"), later)
        // When
        let report = try scenario.report()
        // Then January has one new paid subscription, under the product of the least transaction ID
        let newPaid = report.rows("2026-01", "subscriptions.csv").map { [$0[1], $0[3]] }
        let expected = monthlyID < yearlyID ? "pro.monthly" : "pro.yearly"
        #expect(newPaid.filter { $0[1] != "0" } == [[expected, "1"]], "\(newPaid)")
    }
}
