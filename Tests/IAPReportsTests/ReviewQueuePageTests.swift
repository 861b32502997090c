import Foundation
import IAPAnalytics
import Testing

@testable import IAPReports

/// The page's queue (Documentation/Reports.md "The review queue"): new → active → carried, then money at stake; a
/// cleared account with nothing new collapsed with who cleared it; decisions on the case page's timeline.
@Suite struct ReviewQueuePageTests {
    static func row(_ account: String, _ status: String, stake: Int64, currency: String = "USD", review: String = "")
        -> [ReportValue]
    {
        [
            .text(account), .text("repeat_refunds"), .integer(3), .integer(3), .integer(0), .integer(3), .integer(3),
            .text("2026-10-02T10:00:00Z"), .text("2026-10-20T08:30:00Z"), .text("t1"), .text("2026-10"), .text(status),
            .text("2026-09"), .integer(stake), .text(currency), .text(review),
        ]
    }

    @Test func theQueueLeadsWithNewThenActiveThenCarriedByMoneyAtStake() throws {
        let flagged = Fixtures.table(
            "flagged_accounts.csv", ReportColumns.flaggedAccounts,
            [
                Self.row("a-carried", "carried", stake: 90_000),
                Self.row("b-new-small", "new", stake: 1_000),
                Self.row("c-active", "active", stake: 5_000),
                Self.row("d-new-big", "new", stake: 50_000),
                Self.row("e-cleared", "carried", stake: 99_000, review: "cleared"),
            ])
        let month = MonthReport(
            month: "2026-10", tables: Fixtures.tables([flagged]), flaggedTimelines: [], isEmpty: false)
        let base = Fixtures.set(months: [month])
        let set = ReportSet(
            asOf: base.asOf, environment: base.environment, bundleId: base.bundleId, smallBusiness: false,
            months: [month],
            dataQuality: base.dataQuality, notes: [],
            reviews: [
                "e-cleared": [
                    AccountReview(decision: "cleared", reviewedAt: 1_790_000_000_000, reviewer: "kim", note: "")
                ]
            ])
        let page = MonthPageRenderer.render(month: month, previous: nil, set: set)
        let order = ["d-new-big", "b-new-small", "c-active", "a-carried"].map {
            page.range(of: "| \($0) |")?.lowerBound
        }
        #expect(order.allSatisfy { $0 != nil }, "\(page)")
        #expect(zip(order, order.dropFirst()).allSatisfy { $0! < $1! })
        #expect(page.contains("e-cleared — cleared by kim on 2026-09-21"))
        #expect(!page.contains("| e-cleared | repeat"))
    }

    /// Stakes left in several currencies (no paid summary gives a rate) are never compared by their milliunits.
    /// Before: 7,300 JPY (7,300,000 milliunits, about 50 USD) ranked above 57.98 EUR, and any KRW or IDR account above
    /// every other. Now the currency most rows are in comes first, each currency ranked within itself, no stake last.
    @Test func amountsOfDifferentCurrenciesAreNeverRankedAgainstEachOther() throws {
        let flagged = Fixtures.table(
            "flagged_accounts.csv", ReportColumns.flaggedAccounts,
            [
                Self.row("a-yen", "new", stake: 7_300_000, currency: "JPY"),
                Self.row("b-euro-small", "new", stake: 5_000, currency: "EUR"),
                Self.row("c-usd-small", "new", stake: 9_990),
                Self.row("d-usd-big", "new", stake: 51_980),
                Self.row("e-euro-big", "new", stake: 57_980, currency: "EUR"),
                Self.row("f-usd-mid", "new", stake: 20_000),
                Self.row("g-nothing", "new", stake: 0, currency: ""),
            ])
        let order = ReviewQueue.ordered(flagged.namedRows).map { $0.text("account_id") }
        #expect(
            order == ["d-usd-big", "f-usd-mid", "c-usd-small", "e-euro-big", "b-euro-small", "a-yen", "g-nothing"],
            "\(order)")
    }
}
