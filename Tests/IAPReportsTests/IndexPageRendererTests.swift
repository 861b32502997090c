import IAPAnalytics
import Testing

@testable import IAPReports

@Suite struct IndexPageRendererTests {
    @Test func linksEveryMonthAndChartsTrends() {
        let page = IndexPageRenderer.render(Fixtures.set(months: [Fixtures.september(), Fixtures.october()]))
        #expect(page.contains("[2026-09](2026-09/report.md) · [2026-10](2026-10/report.md)"))
        // Finance first (sales, net revenue, estimated proceeds per currency, from reconciliation.csv), then the rest.
        #expect(page.contains("| Month | Sales | Gross | Net revenue | Est. proceeds | Apple proceeds |"))
        #expect(
            page.contains(
                "| [2026-10](2026-10/report.md) _provisional_ | 130 | 1,118.70 USD | 1,113.75 USD | 779.63 USD | no report |"
            ))
        #expect(
            page.contains(
                "| [2026-10](2026-10/report.md) _provisional_ | 0 | — (11 of 0) | — (3 of 0) | 1 | — (0 of 0) | 2 recovered, 3 expired, 0 pending | 5 | 3.47 USD | 1 |"
            ))
        #expect(page.contains("    x-axis [\"2026-09\", \"2026-10\"]"))
        #expect(page.contains("    line [8, 11]\n    line [2, 3]"))
        #expect(
            page.contains(
                "### Consumable lost proceeds, USD\n\n![Consumable lost proceeds, USD](charts/consumable-losses-usd.svg)"
            ))
        #expect(page.contains("![Net revenue, USD](charts/net-revenue-usd.svg)"))
        #expect(page.contains("    bar [2.77, 3.47]"))
        // Billing outcomes stacked (recovered, expired, pending; Mermaid draws each stack's running totals), the rate
        // as a line of its own.
        #expect(page.contains("    bar [4, 5]\n    bar [4, 5]\n    bar [2, 2]"))
        #expect(page.contains("![Billing-retry recovery rate](charts/billing-recovery-rate.svg)"))
        #expect(page.contains("## Data quality"))
    }

    /// A phone broke the list of months after a month's dash (`2025-` on one line, `05` on the next).
    @Test func eachMonthOfTheListStaysWhole() {
        let html = IndexPageRenderer.renderHTML(Fixtures.set(months: [Fixtures.september(), Fixtures.october()]))
        #expect(
            html.contains(
                "<span class=\"nw\"><a href=\"2026-09/report.html\">2026-09</a></span> · "
                    + "<span class=\"nw\"><a href=\"2026-10/report.html\">2026-10</a></span>"))
    }

    /// A month of V1 sales without a catalog price: currency `XXX`, 0 in every money column. Its sums would read
    /// "0 XXX", a figure of nothing; the pages count the sales instead and add no amount.
    @Test func unpricedSalesAreCountedNotSummed() {
        let august = MonthReport(
            month: "2026-08",
            tables: Fixtures.tables([
                Fixtures.table(
                    "reconciliation.csv", ReportColumns.reconciliation,
                    [
                        [
                            .text("2026-08"), .text("XXX"), .text("auto_renewable"), .integer(13), .integer(0),
                            .integer(1), .integer(0), .integer(0), .integer(0), .integer(0), .integer(0), .integer(14),
                        ]
                    ])
            ]),
            flaggedTimelines: [], isEmpty: false)
        let set = Fixtures.set(months: [august, Fixtures.september()])
        let index = IndexPageRenderer.render(set)
        #expect(index.contains("| [2026-08](2026-08/report.md) | 13 (13 unpriced) | — | — | — | no report |"))
        #expect(!index.contains("0 XXX"))
        let page = MonthPageRenderer.render(month: august, previous: nil, set: set)
        #expect(!page.contains("Net revenue (XXX)"))
        #expect(!page.contains("| 0 XXX |"))
        // The finance table still lists the currency with its counts, and no amount, where the page says what XXX
        // holds.
        #expect(page.contains("| XXX | 13 | — | 1 | — | — | — | 0 | — |"))
    }

    /// A set without months says why: the store holds only lookups or Apple's files, or nothing accepted at all. A
    /// store without an accepted document has no as-of time, and the page said "as of 1970-01-01T00:00:00Z".
    @Test func emptySetStillRendersAndSaysWhy() {
        let page = IndexPageRenderer.render(Fixtures.set(months: []))
        #expect(page.contains("_No months yet: months start at the month of the first accepted notification"))
        #expect(!page.contains("```mermaid"))
        let empty = Fixtures.set(months: [])
        let nothing = ReportSet(
            asOf: 0, environment: empty.environment, bundleId: empty.bundleId, smallBusiness: false, months: [],
            dataQuality: DataQualitySummary(filesRead: 2), notes: [])
        let bare = IndexPageRenderer.render(nothing)
        #expect(bare.contains("as of — (no accepted document)") && !bare.contains("1970"), "\(bare)")
        #expect(bare.contains("_No months yet: the store holds no accepted document."))
    }
}
