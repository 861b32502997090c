import IAPAnalytics
import Testing

@testable import IAPReports

@Suite struct MonthPageRendererTests {
    private func octoberPage(productId: String = "com.example.gold", set: ReportSet = Fixtures.set()) -> String {
        MonthPageRenderer.render(
            month: Fixtures.october(productId: productId), previous: Fixtures.september(), set: set)
    }

    @Test func titleAndRunLine() {
        let page = octoberPage()
        #expect(page.hasPrefix("# iaplens report — 2026-10\n\n"))
        #expect(
            page.contains(
                "Bundle com.example.app · Production · as of 2026-10-31T01:00:00Z · small-business rate off"))
        #expect(page.hasSuffix("\n"))
    }

    @Test func hostileProductIDIsEscapedEverywhere() throws {
        // Given a product ID that tries to break the table, inject HTML and break the Mermaid syntax
        let hostile = "gold|x\n<script>alert(\"1\")</script>: `x`"
        // When the page is rendered
        let page = octoberPage(productId: hostile)
        // Then no raw HTML, no broken row and no raw quote in a Mermaid label survive
        #expect(!page.contains("<script>"))
        #expect(page.contains("gold\\|x &lt;script&gt;alert(\"1\")&lt;/script&gt;: &#96;x&#96;"))
        let productAxis = page.split(separator: "\n").filter { $0.hasPrefix("    x-axis") && $0.contains("gold") }
        #expect(productAxis == ["    x-axis [\"gold x script alert 1 /script x\", \"com.example.silver\"]"])
        #expect(page.contains("```mermaid"))
    }

    @Test func headlinesCompareWithThePreviousMonth() {
        let lines = HeadlineSection.lines(
            current: MonthFigures(Fixtures.october()), previous: MonthFigures(Fixtures.september()))
        let byFigure = { (figure: String) in lines.first { $0.figure == figure } }
        // Bases under 10: a difference, no percentage (Documentation/Reports.md "Provisional months").
        #expect(byFigure("Subscriptions churned, voluntary")?.change == "+3")
        #expect(byFigure("Subscriptions churned, involuntary")?.change == "+1")
        #expect(byFigure("Subscriptions churned, other")?.change == "new")
        #expect(byFigure("Flagged accounts")?.change == "new")
        #expect(byFigure("Refunds")?.change == "+1")
        // Five resolved episodes are under the minimum base: the counts alone, no change in points.
        #expect(byFigure("Billing-retry recovery rate")?.current == "2 recovered, 3 expired, 0 pending")
        #expect(byFigure("Billing-retry recovery rate")?.change == "n/a")
        #expect(byFigure("Consumable lost proceeds (USD)")?.change == "+0.69 USD")
        // A base of 10 or more: the percentage too.
        #expect(byFigure("Net revenue (USD)")?.change.hasSuffix("%)") == true)
        #expect(byFigure("Net revenue (USD)")?.current == "1,113.75 USD")
    }

    @Test func headlinesDropWhenFewerThanBefore() {
        let lines = HeadlineSection.lines(
            current: MonthFigures(Fixtures.september()), previous: MonthFigures(Fixtures.october()))
        #expect(lines.first { $0.figure == "Subscriptions churned, other" }?.change == "−1")
    }

    /// Under the headlines, what the month's figures rest on: a month the archive saw on one day (a lost file) says so
    /// beside the drop it shows; before, its page compared a day's figures with a whole month's without a word.
    @Test(arguments: [
        (
            ArchiveMonth(
                month: "2025-07", firstArchiveDay: "2025-07-14", lastArchiveDay: "2025-07-14", archiveDays: 1,
                appleDaysCovered: 31),
            "notifications on 1 of the month's 31 days (2025-07-14); a day without one may be a quiet day or one the "
                + "archive lacks. Apple's financial reports cover 31 of its days."
        ),
        (
            ArchiveMonth(
                month: "2025-02", firstArchiveDay: "2025-02-01", lastArchiveDay: "2025-02-28", archiveDays: 28,
                appleDaysCovered: 0),
            "notifications on 28 of the month's 28 days (2025-02-01 … 2025-02-28)._"
        ),
        (
            ArchiveMonth(
                month: "2024-02", firstArchiveDay: nil, lastArchiveDay: nil, archiveDays: 0, appleDaysCovered: 0),
            "no notification in the archive is dated in this month"
        ),
    ])
    func theHeadlinesSayWhatTheFiguresRestOn(archive: ArchiveMonth, says: String) throws {
        let block = try #require(HeadlineSection.coverage(archive))
        let text = MarkdownWriter.render(Page(title: "t", blocks: [block], depth: 1))
        #expect(text.contains("**What these figures rest on:** " + says), "\(text)")
    }

    @Test func firstMonthSaysThereIsNoPreviousMonth() {
        let page = MonthPageRenderer.render(month: Fixtures.october(), previous: nil, set: Fixtures.set())
        #expect(page.contains("No previous month in this report set"))
        let lines = HeadlineSection.lines(current: MonthFigures(Fixtures.october()), previous: nil)
        #expect(lines.allSatisfy { $0.change == "no previous month" })
    }

    @Test func emptyMonthSaysSoAndKeepsDataQuality() {
        let page = MonthPageRenderer.render(
            month: Fixtures.emptyNovember(), previous: Fixtures.october(), set: Fixtures.set())
        #expect(page.contains("No counted activity in this month"))
        #expect(page.contains("## Data quality"))
        #expect(!page.contains("## Headlines"))
    }

    @Test func noVerifyWarningOnlyWhenUnverifiedDocumentsExist() {
        #expect(!octoberPage().contains("--no-verify` was used"))
        let page = octoberPage(set: Fixtures.set(unverified: 7))
        #expect(page.contains("> **Warning: `--no-verify` was used. 7 accepted documents were not signature-checked"))
    }

    @Test func notesAreCalledOutNearTheTop() throws {
        let page = octoberPage(set: Fixtures.set(notes: ["As-of time given with --as-of"]))
        let note = try #require(page.firstRange(of: "> **Note:** As-of time given with --as-of"))
        let headlines = try #require(page.firstRange(of: "## Headlines"))
        #expect(note.lowerBound < headlines.lowerBound)
    }

    @Test func pendingBillingEpisodesAreNotCountedAsFailures() {
        // Given a month whose three episodes are all still retrying
        let retrying = Fixtures.table(
            "billing_retry.csv", ReportColumns.billingRetry,
            [
                [
                    .text("2026-11"), .text("com.example.gold"), .integer(3), .integer(0), .integer(0), .integer(0),
                    .integer(3),
                ]
            ])
        let month = MonthReport(
            month: "2026-11", tables: Fixtures.tables([retrying]), flaggedTimelines: [], isEmpty: false)
        // When the headlines are computed
        let lines = HeadlineSection.lines(current: MonthFigures(month), previous: MonthFigures(Fixtures.october()))
        let rate = lines.first { $0.figure == "Billing-retry recovery rate" }
        // Then there is no rate yet and no fall from last month
        #expect(rate?.current == "0 recovered, 0 expired, 3 pending")
        #expect(rate?.change.contains("−") == false)
    }

    @Test func flaggedAccountHasRulesAndTimeline() {
        let page = octoberPage()
        #expect(page.contains("#### Account acct\\|7"))
        #expect(page.contains("- repeat refunds: 3 or more refunds in the 90 days to month end"))
        #expect(page.contains("- consumable refund burst: 2 or more consumable refunds within 30 days of each other"))
        #expect(page.contains("| 2026-10-02T10:00:00Z | **refund** | t1 | com.example.coins | 0.99 USD |"))
        #expect(page.contains("| 2026-10-06T00:00:00Z | consumption request | t2 | com.example.coins | — |"))
    }

    @Test func chartsArePresent() {
        let page = octoberPage()
        // Each chart is the SVG beside the page, its caption, and its data as a folded Mermaid block.
        for name in ["churn-reasons", "churn-by-product", "billing-outcomes"] {
            #expect(page.contains("](charts/\(name).svg)\n\n_"))
        }
        #expect(page.contains("<details><summary>Chart data (Mermaid)</summary>\n\n```mermaid\n"))
        #expect(page.contains("xychart-beta\n    title \"Churn reasons\""))
        #expect(page.contains("xychart-beta\n    title \"Churn by product\""))
        #expect(page.contains("xychart-beta\n    title \"Billing-retry outcomes\""))
    }

    @Test func longTablesAreCutWithALinkToTheCSV() {
        let rows: [[ReportValue]] = (0..<60).map { index in
            [.text("2026-10"), .text("p\(1000 + index)"), .text("voluntary"), .text("customer_canceled"), .integer(1)]
        }
        let month = MonthReport(
            month: "2026-10", tables: Fixtures.tables([Fixtures.table("churn.csv", ReportColumns.churn, rows)]),
            flaggedTimelines: [], isEmpty: false)
        let page = MonthPageRenderer.render(month: month, previous: nil, set: Fixtures.set())
        #expect(page.contains("… 10 more rows in [churn.csv](churn.csv)."))
        #expect(page.contains("The 12 products with most churn are drawn."))
    }
}

@Suite struct MonthPageEdgeCaseTests {
    @Test func emptyMonthStillShowsAccountsFlaggedEarlier() {
        // Given a month without counted activity in which an account stays flagged for its refund rate
        let flagged = Fixtures.table(
            "flagged_accounts.csv", ReportColumns.flaggedAccounts,
            [
                [
                    .text("-acct"), .text("high_refund_rate"), .integer(0), .integer(0), .integer(0), .integer(2),
                    .integer(2), .empty, .empty, .empty, .text("2026-11"), .text("carried"), .text("2026-09"),
                    .integer(0),
                    .text(""), .text(""),
                ]
            ])
        let month = MonthReport(
            month: "2026-11", tables: Fixtures.tables([flagged]), flaggedTimelines: [], isEmpty: true)
        // When it is rendered
        let page = MonthPageRenderer.render(month: month, previous: nil, set: Fixtures.set())
        // Then the page says there is no activity, but the reviewer still sees the account
        #expect(page.contains("No counted activity in this month"))
        #expect(page.contains("except the accounts still flagged from earlier months"))
        #expect(page.contains("#### Account -acct"))
        #expect(page.contains("- high refund rate:"))
        #expect(page.contains("_No timeline events recorded for this account._"))
    }

    @Test func unknownRuleCodeCannotOpenANestedList() {
        let flagged = Fixtures.table(
            "flagged_accounts.csv", ReportColumns.flaggedAccounts,
            [
                [
                    .text("a"), .text("- new_rule"), .integer(0), .integer(0), .integer(0), .integer(0), .integer(0),
                    .empty, .empty, .empty, .text("2026-10"), .text("new"), .text("2026-10"), .integer(0), .text(""),
                    .text(""),
                ]
            ])
        let month = MonthReport(
            month: "2026-10", tables: Fixtures.tables([flagged]), flaggedTimelines: [], isEmpty: false)
        let page = MonthPageRenderer.render(month: month, previous: nil, set: Fixtures.set())
        #expect(page.contains("\n- \\- new\\_rule\n") || page.contains("\n- \\- new_rule\n"))
    }

    @Test func indexPutsNotesAtTheBottom() throws {
        let page = IndexPageRenderer.render(Fixtures.set(notes: ["Prices from products.csv"]))
        let notes = try #require(page.firstRange(of: "## Notes\n\n- Prices from products.csv"))
        let trends = try #require(page.firstRange(of: "## Trends"))
        #expect(trends.lowerBound < notes.lowerBound)
    }
}
