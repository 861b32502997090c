import IAPAnalytics
import IAPStore
import Testing

@Suite("reconciliation.csv")
struct ReconciliationTests {
    @Test(arguments: [(0, "8492"), (-1, "6993")] as [(Int64, String)])
    func eightyFivePercentFromOneYear(offset: Int64, proceeds: String) throws {
        // Given a renewal purchased exactly 365 days (or 1 ms less) after the original purchase
        let scenario = try Scenario()
        let original = at("2025-03-15")
        let renewal = Txn.subscription(
            "t13", original: "s1", purchase: original + 365 * day + offset, expires: at("2026-04-01"),
            originalPurchase: original)
        scenario.notify("DID_RENEW", at: at("2026-03-01"), renewal)
        // When
        let report = try scenario.report()
        // Then 9990 × 85 % = 8491.5 → 8492 from the 365th day; 70 % = 6993 before
        #expect(report.rows("2026-03", "reconciliation.csv").first?[8] == proceeds)
    }

    @Test func smallBusinessIsEightyFivePercent() throws {
        // Given a consumable sale and its 50 % refund under the Small Business Program
        let scenario = try Scenario()
        let coins = Txn.consumable("c1", purchase: at("2026-01-05"), price: 1_990)
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-05"), coins)
        scenario.notify("REFUND", at: at("2026-01-09"), coins.revoked(at: at("2026-01-09"), percentage: 50_000))
        // When
        let report = try scenario.report(AnalysisOptions(bundleId: "com.example.app", smallBusiness: true))
        // Then proceeds = (1990×85+50)/100 − (995×85+50)/100 = 1692 − 846 = 846
        #expect(
            report.rows("2026-01", "reconciliation.csv") == [
                ["2026-01", "USD", "consumable", "1", "1990", "1", "995", "995", "846", "0", "0", "0"]
            ])
        #expect(
            report.rows("2026-01", "consumable_losses.csv") == [
                ["2026-01", "coins.100", "USD", "1", "995", "846", "0", "0", "0"]
            ])
    }

    @Test func v1PricedFromTheFirstCatalogRowElseUnpriced() throws {
        // Given V1 purchases: one product listed twice in the catalog (first row wins), one not listed,
        // and a free trial
        let scenario = try Scenario()
        try scenario.products([
            ("pro.monthly", "auto_renewable", "EUR", 4_990),
            ("pro.monthly", "auto_renewable", "USD", 5_990),
        ])
        let listed = Txn.v1(
            "a", original: "a", product: "pro.monthly", purchase: at("2026-01-03"), expires: at("2026-02-03"))
        let trial = Txn.v1(
            "b", original: "b", product: "pro.monthly", purchase: at("2026-01-04"), expires: at("2026-01-11"),
            trial: true)
        let unlisted = Txn.v1(
            "c", original: "c", product: "old.sub", purchase: at("2026-01-05"), expires: at("2026-02-05"))
        let lifetime = Txn.v1("d", original: "d", product: "lifetime", purchase: at("2026-01-06"))
        scenario.notifyV1(
            "INITIAL_BUY", at: at("2026-01-06"), original: "a", transactions: [listed, trial, unlisted, lifetime])
        // When
        let report = try scenario.report(AnalysisOptions(bundleId: "com.example.app", asOf: at("2026-01-31")))
        // Then EUR priced; the unlisted ones are unpriced (XXX), typed by expiry; the trial is not a sale
        #expect(
            report.rows("2026-01", "reconciliation.csv") == [
                ["2026-01", "EUR", "auto_renewable", "1", "4990", "0", "0", "4990", "3493", "0", "0", "0"],
                ["2026-01", "XXX", "auto_renewable", "1", "0", "0", "0", "0", "0", "0", "0", "1"],
                ["2026-01", "XXX", "unknown", "1", "0", "0", "0", "0", "0", "0", "0", "1"],
            ])
    }

    @Test func refundOfAnEarlierPurchaseIsPriorPeriod() throws {
        // Given a December sale refunded in January, and a January sale refunded in January
        let scenario = try Scenario()
        let december = Txn.consumable("c1", purchase: at("2025-12-20"), price: 1_000)
        let january = Txn.consumable("c2", purchase: at("2026-01-02"), price: 2_000)
        scenario.notify("ONE_TIME_CHARGE", at: at("2025-12-20"), december)
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-02"), january)
        scenario.notify("REFUND", at: at("2026-01-10"), december.revoked(at: at("2026-01-10")))
        scenario.notify("REFUND", at: at("2026-01-11"), january.revoked(at: at("2026-01-11")))
        // When
        let report = try scenario.report()
        // Then
        #expect(
            report.rows("2025-12", "reconciliation.csv") == [
                ["2025-12", "USD", "consumable", "1", "1000", "0", "0", "1000", "700", "0", "0", "0"]
            ])
        #expect(
            report.rows("2026-01", "reconciliation.csv") == [
                ["2026-01", "USD", "consumable", "1", "2000", "2", "3000", "-1000", "-700", "1", "1000", "0"]
            ])
    }
}
