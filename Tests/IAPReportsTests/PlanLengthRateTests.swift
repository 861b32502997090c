import IAPAnalytics
import Testing

@testable import IAPReports

/// Rates per plan length (Documentation/Reports.md "Rates per plan length"): where a month's products have monthly and
/// yearly plans, no page blends their churn. Before: the headline read 4.7 % (3 of 64) over monthly and yearly plans.
@Suite struct PlanLengthRateTests {
    static func subscription(
        _ month: String, _ product: String, start: Int64, voluntary: Int64, ended: Int64 = 0, converted: Int64 = 0
    ) -> [ReportValue] {
        [
            .text(month), .text(product), .integer(start), .integer(0), .integer(voluntary), .integer(0), .integer(0),
            .integer(start - voluntary), .integer(0), .integer(ended), .integer(converted),
        ]
    }

    static func month(_ month: String, monthlyChurned: Int64) -> MonthReport {
        let subscriptions = Fixtures.table(
            "subscriptions.csv", ReportColumns.subscriptions,
            [
                subscription(month, "app.monthly", start: 40, voluntary: monthlyChurned, ended: 4, converted: 3),
                subscription(month, "app.yearly", start: 30, voluntary: 1),
                // Every subscription of the legacy product ended this month: no row of its own in mrr.csv this month.
                subscription(month, "app.monthly.legacy", start: 10, voluntary: 10),
            ])
        let mrr = Fixtures.table(
            "mrr.csv", ReportColumns.mrr,
            [
                [.text(month), .text("app.monthly"), .text("USD"), .integer(36), .text("P1M"), .integer(359_640)],
                [.text(month), .text("app.yearly"), .text("USD"), .integer(29), .text("P1Y"), .integer(241_580)],
            ])
        return MonthReport(
            month: month, tables: Fixtures.tables([subscriptions, mrr]), flaggedTimelines: [], isEmpty: false)
    }

    @Test func everyRateIsPerPlanLengthWherePlansDiffer() throws {
        let (september, october) = (Self.month("2026-09", monthlyChurned: 2), Self.month("2026-10", monthlyChurned: 4))
        let base = Fixtures.set(months: [september, october])
        let set = ReportSet(
            asOf: base.asOf, environment: base.environment, bundleId: base.bundleId, smallBusiness: false,
            months: [september, october], dataQuality: base.dataQuality, notes: [],
            productPeriods: ["app.monthly": "P1M", "app.yearly": "P1Y", "app.monthly.legacy": "P1M"])
        let page = MonthPageRenderer.render(month: october, previous: september, set: set)
        // The legacy product's 10 are in the monthly base: 14 of 50, not 4 of 40.
        #expect(page.contains("| Churn rate, voluntary, P1M | 28.0 % (14 of 50) | 24.0 % (12 of 50) |"), "\(page)")
        #expect(page.contains("| Churn rate, voluntary, P1Y | 3.3 % (1 of 30) | 3.3 % (1 of 30) |"))
        #expect(page.contains("| Trial conversion, P1M |"))
        // No rate over all 80 (the product section's sentence read "0.0 % (0 of 80) voluntary" here): each rate is per
        // plan length, there too.
        #expect(!page.contains("of 80)"), "no rate blends both lengths")
        #expect(page.contains("Churn rate by plan length: P1M: 28.0 % (14 of 50) voluntary"), "\(page)")
        #expect(page.contains("; P1Y: 3.3 % (1 of 30) voluntary, 0.0 % (0 of 30) involuntary (billing)."))
        #expect(page.contains("conversion by plan length: P1M: — (3 of 4 converted); P1Y: — (0 of 0 converted)."))
        let index = IndexPageRenderer.render(set)
        #expect(index.contains("P1M 28.0 % (14 of 50); P1Y 3.3 % (1 of 30)"), "\(index)")
        let figures = set.months.map { MonthFigures($0, periods: set.productPeriods) }
        let churn = try #require(
            TrendCharts.charts(
                months: ["2026-09", "2026-10"], figures: figures, activeByProduct: [("app.monthly", [40, 40])]
            )
            .first { $0.name == "churn-rate" })
        guard case .categorical(let data) = churn.body else { Issue.record("not categorical"); return }
        #expect(
            data.series.map(\.name) == [
                "Voluntary, P1M", "Involuntary (billing), P1M", "Voluntary, P1Y", "Involuntary (billing), P1Y",
            ])
        // One plan length: one rate over every product, as before.
        let plain = MonthPageRenderer.render(
            month: Fixtures.october(), previous: Fixtures.september(), set: Fixtures.set())
        #expect(plain.contains("| Churn rate, voluntary | ") && !plain.contains("Churn rate, voluntary, P1"))
    }
}
