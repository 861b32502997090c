import Foundation
import IAPAnalytics
import IAPStore
import IAPTestSupport
import Testing

/// `mrr.csv`, `countries.csv` and `cohorts.csv` (Documentation/Reports.md): the figures a subscription dashboard opens
/// with, each rule on a constructed case, on both engines.
@Suite("mrr.csv, countries.csv, cohorts.csv")
struct RecurringRevenueTests {
    static let day: Int64 = 86_400_000

    /// A product's period is its median period length taken to the nearest named one, at each boundary the
    /// contract names; the month's share of a 9.99 price follows it, rounded half up.
    @Test(
        arguments: [
            (28, "P1M", 9_990), (31, "P1M", 9_990), (59, "P2M", 4_995), (62, "P2M", 4_995), (90, "P3M", 3_330),
            (92, "P3M", 3_330), (181, "P6M", 1_665), (184, "P6M", 1_665), (365, "P1Y", 833), (366, "P1Y", 833),
            (7, "P1W", 43_290),
        ] as [(Int64, String, Int64)])
    func aProductsPeriodRoundsToTheNearestNamedLength(days: Int64, period: String, mrr: Int64) throws {
        let scenario = try Scenario()
        let start = at("2026-01-26")
        let sub = Txn.subscription(
            "t1", original: "s1", product: "plan", purchase: start, expires: start + days * Self.day)
        scenario.notify("SUBSCRIBED", at: start, sub)
        scenario.notify(
            "DID_CHANGE_RENEWAL_STATUS", at: at("2026-02-01") + 1, Txn.consumable("c1", purchase: at("2026-02-01")))
        let report = try scenario.report()
        #expect(
            report.rows("2026-01", "mrr.csv") == [["2026-01", "plan", "USD", "1", period, String(mrr)]], "\(days) days")
    }

    /// With several lengths, the lower median decides: of 28, 28, 365 and 365 days the second (28: `P1M`); one more
    /// yearly period makes the third of five the median (365: `P1Y`). Built from a histogram of the lengths, so a
    /// median that falls inside a run of equal lengths, or at a run's last period, must still find its run.
    @Test(arguments: StoreKind.allCases.flatMap { engine in [(engine, 4, "P1M"), (engine, 5, "P1Y")] })
    func theLowerMedianOfSeveralLengthsDecidesTheProductsPeriod(engine: StoreKind, subscriptions: Int, period: String)
        throws
    {
        let scenario = try Scenario(engine: try engine.freshStore())
        for index in 0..<subscriptions {
            let start = at("2026-01-05") + Int64(index) * Self.day
            let days: Int64 = index < 2 ? 28 : 365
            let sub = Txn.subscription(
                "t\(index)", original: "s\(index)", product: "plan", purchase: start, expires: start + days * Self.day)
            scenario.notify("SUBSCRIBED", at: start, sub)
        }
        scenario.notify(
            "DID_CHANGE_RENEWAL_STATUS", at: at("2026-02-01") + 1, Txn.consumable("c1", purchase: at("2026-02-01")))
        let rows = try scenario.report().rows("2026-01", "mrr.csv")
        #expect(rows.map { [$0[1], $0[3], $0[4]] } == [["plan", "\(subscriptions)", period]], "\(rows)")
    }

    /// Periods of one subscription that overlap: the later purchase is the current period, and on the same
    /// purchase time the greater transaction ID; each subscription counts once. T on a month's first millisecond
    /// is that month's start and its end: one instant, counted once.
    @Test(arguments: StoreKind.allCases)
    func overlappingPeriodsCountTheCurrentOneOnce(engine: StoreKind) throws {
        let scenario = try Scenario(engine: try engine.freshStore())
        // s1: a2 bought before a1 ends; both cover February 1st.
        let a1 = Txn.subscription("a1", original: "s1", purchase: at("2026-01-01"), expires: at("2026-02-15"))
        let a2 = Txn.subscription(
            "a2", original: "s1", purchase: at("2026-01-20"), expires: at("2026-02-20"), price: 12_990)
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), a1)
        scenario.notify("DID_RENEW", at: at("2026-01-20"), a2)
        // s2: two periods bought at the same millisecond: b2, the greater transaction ID, is current.
        let b1 = Txn.subscription(
            "b1", original: "s2", purchase: at("2026-01-10"), expires: at("2026-02-10"), price: 4_990)
        let b2 = Txn.subscription(
            "b2", original: "s2", purchase: at("2026-01-10"), expires: at("2026-02-10"), price: 6_990)
        scenario.notify("SUBSCRIBED", at: at("2026-01-10"), b1)
        scenario.notify("DID_RENEW", at: at("2026-01-10") + 1, b2)
        // s3 covers March 1st, which is T.
        let c1 = Txn.subscription("c1", original: "s3", purchase: at("2026-02-15"), expires: at("2026-03-15"))
        scenario.notify("SUBSCRIBED", at: at("2026-02-15"), c1)
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-03-01"), Txn.consumable("k1", purchase: at("2026-03-01")))
        let report = try scenario.report()

        #expect(report.rows("2026-01", "mrr.csv") == [["2026-01", "pro.monthly", "USD", "2", "P1M", "19980"]])
        #expect(report.rows("2026-02", "mrr.csv") == [["2026-02", "pro.monthly", "USD", "1", "P1M", "9990"]])
        #expect(report.rows("2026-03", "mrr.csv") == [["2026-03", "pro.monthly", "USD", "1", "P1M", "9990"]])
        let march = report.rows("2026-03", "subscriptions.csv")
        #expect(march.map { [$0[1], $0[2], $0[7]] } == [["pro.monthly", "1", "1"]], "\(march)")
    }

    @Test(arguments: StoreKind.allCases)
    func theCurrentPeriodDecidesAndEachCountHasItsStorefront(engine: StoreKind) throws {
        let scenario = try Scenario(engine: try engine.freshStore())
        try scenario.products([("legacy.monthly", "auto_renewable", "EUR", 4_990)])
        // s1: a price change at its second period: February's end counts the new price.
        var first = Txn.subscription("a1", original: "s1", purchase: at("2026-01-05"), expires: at("2026-02-05"))
        first.fields.storefront = "DEU"
        var second = Txn.subscription(
            "a2", original: "s1", purchase: at("2026-02-05"), expires: at("2026-03-05"), price: 12_990)
        second.fields.storefront = "FRA"
        scenario.notify("SUBSCRIBED", at: at("2026-01-05"), first)
        scenario.notify("DID_RENEW", at: at("2026-02-05"), second)
        // s2: its current period refunded before February's end: not active then.
        var refunded = Txn.subscription("b1", original: "s2", purchase: at("2026-01-10"), expires: at("2026-02-10"))
        refunded.fields.storefront = "USA"
        var renewed = Txn.subscription("b2", original: "s2", purchase: at("2026-02-10"), expires: at("2026-03-10"))
        renewed.fields.storefront = "USA"
        scenario.notify("SUBSCRIBED", at: at("2026-01-10"), refunded)
        scenario.notify("DID_RENEW", at: at("2026-02-10"), renewed)
        scenario.notify("REFUND", at: at("2026-02-20"), renewed.revoked(at: at("2026-02-20")))
        // s3: V1 only: no storefront, priced from products.csv.
        let v1 = Txn.v1(
            "v1", original: "s3", product: "legacy.monthly", purchase: at("2026-01-15"), expires: at("2026-02-15"))
        let v2 = Txn.v1(
            "v2", original: "s3", product: "legacy.monthly", purchase: at("2026-02-15"), expires: at("2026-03-15"))
        scenario.notifyV1("INITIAL_BUY", at: at("2026-01-15"), original: "s3", transactions: [v1])
        scenario.notifyV1("DID_RENEW", at: at("2026-02-15"), original: "s3", transactions: [v1, v2])
        // T on March 10th: January's cohort has months since 1 (Feb 1) and 2 (Mar 1), not 3 (Apr 1 is after T).
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-03-10"), Txn.consumable("c1", purchase: at("2026-03-10")))
        let report = try scenario.report()

        #expect(
            report.rows("2026-01", "mrr.csv") == [
                ["2026-01", "legacy.monthly", "EUR", "1", "P1M", "4990"],
                ["2026-01", "pro.monthly", "USD", "2", "P1M", "19980"],
            ])
        #expect(
            report.rows("2026-02", "mrr.csv") == [
                ["2026-02", "legacy.monthly", "EUR", "1", "P1M", "4990"],
                ["2026-02", "pro.monthly", "USD", "1", "P1M", "12990"],
            ])
        // Storefronts: the first paid period for new, the current period at each instant, the refunded transaction's.
        #expect(
            report.rows("2026-01", "countries.csv") == [
                ["2026-01", "DEU", "0", "1", "0", "0", "0", "1", "0", "1"],
                ["2026-01", "USA", "0", "1", "0", "0", "0", "1", "0", "1"],
                ["2026-01", "unknown", "0", "1", "0", "0", "0", "1", "0", "1"],
            ])
        let february = report.rows("2026-02", "countries.csv")
        #expect(february.contains(["2026-02", "FRA", "0", "0", "0", "0", "0", "1", "0", "1"]), "\(february)")
        #expect(february.contains { $0[1] == "USA" && $0[2] == "1" && $0[7] == "0" && $0[8] == "1" }, "\(february)")
        #expect(february.contains { $0[1] == "DEU" && $0[2] == "1" && $0[7] == "0" }, "\(february)")
        // Summed over storefronts, each count is subscriptions.csv's.
        for month in ["2026-01", "2026-02", "2026-03"] {
            let base = report.rows(month, "subscriptions.csv")
            let countries = report.rows(month, "countries.csv")
            for (baseColumn, countryColumn) in [(2, 2), (3, 3), (7, 7)] {
                #expect(
                    base.reduce(0) { $0 + Int($1[baseColumn])! }
                        == countries.reduce(0) { $0 + Int($1[countryColumn])! }, "\(month)")
            }
        }
        let cohorts = report.cohorts.rows.map {
            $0.map { value -> String in
                if case .integer(let number) = value { return String(number) }
                if case .text(let text) = value { return text }
                return ""
            }
        }
        // January's three: all active on February 1st; on March 1st s2's refunded period no longer counts.
        #expect(cohorts == [["2026-01", "1", "3", "3", "1000"], ["2026-01", "2", "3", "2", "667"]], "\(cohorts)")
        #expect(!cohorts.contains { $0[0] == "2026-01" && $0[1] == "3" }, "months since past T are not written")
        // A run of one month (`--month 2026-03`) into the same folder keeps every cohort: the file describes the folder.
        // Before, it held March's cohorts only (none), and the index's triangle lost January's.
        let march = try scenario.report(AnalysisOptions(bundleId: "com.example.app", months: ["2026-03"]))
        #expect(march.cohorts.rows == report.cohorts.rows)
    }
}
