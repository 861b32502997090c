import IAPAnalytics
import IAPFormats
import Testing

@testable import IAPReports

/// Documentation/Reports.md "Provisional months" and the display rules: rates with their counts, percentages only
/// from a base of 10, no change against or from a provisional month.
@Suite struct ProvisionalMonthTests {
    @Test func aMonthIsProvisionalUntilSixtyDaysAfterItsEnd() throws {
        let end = try #require(ISO8601Millis.parse("2025-12-01T00:00:00Z"))  // November's end
        let day: Int64 = 86_400_000
        #expect(ProvisionalMonth.isProvisional("2025-11", asOf: end + 60 * day - 1))
        #expect(!ProvisionalMonth.isProvisional("2025-11", asOf: end + 60 * day))
        #expect(ProvisionalMonth.isProvisional("2025-12", asOf: end + 60 * day))
    }

    @Test func percentagesOnlyFromABaseOfTen() {
        #expect(ChangeText.count(current: 42, previous: 1) == "+41")
        #expect(ChangeText.count(current: 0, previous: 9) == "−9")
        #expect(ChangeText.count(current: 11, previous: 10) == "+1 (+10.0 %)")
        #expect(ChangeText.money(current: 5_000, previous: 9_990, currency: "USD") == "−4.99 USD")
        #expect(ChangeText.money(current: 20_000, previous: 10_000, currency: "USD") == "+10.00 USD (+100.0 %)")
    }

    @Test func noChangeIsComputedAgainstOrFromAProvisionalMonth() {
        let blocks = HeadlineSection.render(
            month: "2026-10", current: MonthFigures(Fixtures.october()), previousMonth: "2026-09",
            previous: MonthFigures(Fixtures.september()), provisional: "2026-10")
        let text = MarkdownWriter.render(Page(title: "t", blocks: blocks, depth: 1))
        #expect(text.contains("not compared: 2026-10 is provisional"))
        #expect(!text.contains(" pp |"))
        // Before: every row said "not compared", the finance rows too. After: only figures that still move (churn,
        // trials, billing recovery); money and counts of what happened are compared.
        let lines = text.split(separator: "\n")
        #expect(lines.first { $0.contains("Net revenue (USD)") }?.contains("not compared") == false)
        #expect(lines.first { $0.contains("| Refunds |") }?.contains("not compared") == false)
        #expect(lines.first { $0.contains("Subscriptions churned, voluntary") }?.contains("not compared") == true)
    }

    @Test func pagesMarkProvisionalMonthsAndShowRatesWithCounts() {
        // The fixtures' T (2026-10-31) is within 60 days of September's and October's ends.
        let set = Fixtures.set(months: [Fixtures.september(), Fixtures.october()])
        let page = MonthPageRenderer.render(month: Fixtures.october(), previous: Fixtures.september(), set: set)
        #expect(page.contains("**Provisional month.**"))
        #expect(!page.contains(" pp |"))
        let index = IndexPageRenderer.render(set)
        #expect(index.contains("[2026-10](2026-10/report.md) _provisional_"))
        #expect(index.contains("recovered, ") && index.contains(" expired, ") && index.contains(" pending"))
        #expect(!index.contains("2 / 5"))
    }
}
