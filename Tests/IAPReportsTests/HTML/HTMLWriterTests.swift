import IAPAnalytics
import Testing

@testable import IAPReports

@Suite struct HTMLWriterTests {
    static let hostileProduct = "\"><img src=x onerror=alert(1)><script>alert(2)</script>"
    static let hostileAccount = "<b>x</b>\"'><svg onload=alert(3)>/../\u{202E}evil"

    private func octoberHTML() -> String {
        let month = Fixtures.october(productId: Self.hostileProduct, accountId: Self.hostileAccount)
        let set = Fixtures.set(months: [Fixtures.september(), month])
        return MonthPageRenderer.renderHTML(month: month, previous: Fixtures.september(), set: set)
    }

    @Test func dataCannotOpenMarkupOrLeaveAnAttribute() {
        let page = octoberHTML()
        // No element or attribute from the data: every < and " of it is an entity.
        #expect(!page.contains("<script"))
        #expect(!page.contains("<img"))
        #expect(!page.contains("<b>x"))
        #expect(!page.contains("onload=alert(3)>"))
        #expect(page.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;"))
        // The bidirectional override cannot reorder what a reviewer reads.
        #expect(!page.contains("\u{202E}"))
        // The case-page link is a harmless relative name, whatever the account ID holds.
        #expect(page.contains("href=\"accounts/_b_x_b_svg_onload_alert_3_evil-"))
    }

    @Test func aNameOrOptionStaysOnOneLineAndACommandWrapsBetweenWords() {
        // A phone broke "(--reviews)" after its dashes: names and options are kept whole by the stylesheet,
        // commands with spaces may wrap between their words.
        #expect(HTMLWriter.inline("(\(code: "--reviews"))") == "(<code>--reviews</code>)")
        #expect(
            HTMLWriter.inline("\(code: "iaplens fetch --since 2026-01-01")")
                == "<code class=\"wrap\">iaplens fetch --since 2026-01-01</code>")
        #expect(
            Stylesheet.css.contains("border-radius: 3px; white-space: nowrap; }\ncode.wrap { white-space: normal; }"))
    }

    @Test func pageIsSelfContained() {
        let page = octoberHTML()
        #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(page.contains("<link rel=\"stylesheet\" href=\"../style.css\">"))
        #expect(page.contains("Content-Security-Policy"))
        #expect(!page.contains("http://") || !page.contains("src=\"http"))
        #expect(!page.contains("https://"))
        // Charts are inline SVG, not files to fetch.
        #expect(page.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\""))
    }

    @Test func linksToMarkdownPagesPointAtTheirHTMLTwins() {
        #expect(HTMLWriter.htmlTarget("../index.md") == "../index.html")
        #expect(HTMLWriter.htmlTarget("2026-10/report.md") == "2026-10/report.html")
        #expect(HTMLWriter.htmlTarget("../report.md#flagged-accounts") == "../report.html#flagged-accounts")
        #expect(HTMLWriter.htmlTarget("churn.csv") == "churn.csv")
        #expect(HTMLWriter.htmlTarget("a b\"c.csv") == "a%20b%22c.csv")
    }

    @Test func sameSectionsAsTheMarkdownPage() {
        let month = Fixtures.october()
        let set = Fixtures.set()
        let html = MonthPageRenderer.renderHTML(month: month, previous: Fixtures.september(), set: set)
        let markdown = MonthPageRenderer.render(month: month, previous: Fixtures.september(), set: set)
        for section in ["Headlines", "Finance", "Product", "Trust and safety", "Data quality", "Consumption requests"] {
            #expect(markdown.contains("# \(section)\n"))
            #expect(html.contains(">\(section)</h"))
        }
        // Same figures: the headline net revenue and a reconciliation amount appear on both pages.
        for figure in ["1,113.75 USD", "779.63 USD", "2 recovered, 3 expired, 0 pending"] {
            #expect(markdown.contains(figure))
            #expect(html.contains(figure))
        }
    }

    @Test func casePageHoldsRulesTimelineTotalsAndOtherMonths() {
        let october = Fixtures.october()
        let november = Fixtures.october(accountId: "acct|7")
        let novemberMonth = MonthReport(
            month: "2026-11", tables: november.tables, flaggedTimelines: november.flaggedTimelines, isEmpty: false)
        let set = Fixtures.set(months: [Fixtures.september(), october, novemberMonth])
        let row = october.rows("flagged_accounts.csv")[0]
        let page = HTMLWriter.render(
            CasePageRenderer.page(account: row, month: october, set: set, index: FlaggedAccountIndex(set)))
        #expect(page.contains("<title>Account acct|7 — flagged in 2026-10</title>"))
        #expect(page.contains("repeat refunds: 3 or more refunds in the 90 days to month end"))
        #expect(page.contains("Refunds in the window (evidence): t1, t2, t3."))
        // Totals per currency from the timeline: 1 purchase of 0.99 USD, 1 refund of 0.99 USD.
        #expect(
            page.contains(
                "<td class=\"nw\">USD</td><td class=\"num nw\">1</td><td class=\"num\"><span class=\"nw\">0.99 USD</span></td>"
            ))
        #expect(page.contains("class=\"point\""))
        #expect(page.contains("<a href=\"../../2026-11/accounts/acct_7-0cda15b4c3a3.html\">2026-11</a>"))
        #expect(page.contains("<a href=\"../report.html#flagged-accounts\">2026-10 report</a>"))
    }

    @Test func renderingIsDeterministic() {
        let set = Fixtures.set()
        #expect(IndexPageRenderer.renderHTML(set) == IndexPageRenderer.renderHTML(Fixtures.set()))
        let month = Fixtures.october()
        #expect(
            MonthPageRenderer.renderHTML(month: month, previous: nil, set: set)
                == MonthPageRenderer.renderHTML(month: Fixtures.october(), previous: nil, set: Fixtures.set()))
    }
}
