import Foundation
import IAPAnalytics
import Testing

@testable import IAPReports

/// The HTML report as a person sees it, in a real headless Chromium: pages load without errors, every link and
/// image resolves, each chart has as many bars or points as the data has values, and injected markup shows as text.
/// Screenshots go to `.build/screenshots/` (out of git) for a person to look at.
@Suite(.serialized) struct BrowserTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func browser() throws -> Chromium {
        try #require(Chromium.find() != nil, "Chromium is missing: scripts/test.sh installs Debian's chromium")
        return Chromium.find()!
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "iaplens-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// September, an October whose product and account IDs carry markup, and an empty November.
    private func hostileSet() -> ReportSet {
        Fixtures.set(
            months: [
                Fixtures.september(),
                Fixtures.october(productId: HTMLWriterTests.hostileProduct, accountId: HTMLWriterTests.hostileAccount),
                Fixtures.emptyNovember(),
            ], unverified: 2, notes: ["A note with <b>markup</b> & \"quotes\"."])
    }

    private func expectClean(_ report: Chromium.PageReport) {
        #expect(report.loaded, "\(report.url) did not load")
        #expect(!report.title.isEmpty)
        #expect(report.stylesheetRules > 10, "the stylesheet of \(report.url) did not apply")
        #expect(report.bodyFont.contains("DejaVu Sans"))
        #expect(report.brokenLinks.isEmpty, "\(report.url): \(report.brokenLinks)")
        #expect(report.brokenImages.isEmpty, "\(report.url): \(report.brokenImages)")
        #expect(report.scripts == 0)
        #expect(report.elementsWithEventHandlers == 0)
        for chart in report.charts {
            #expect(
                !chart.title.isEmpty && chart.descriptionLength > 20, "\(chart.figure) needs a title and description")
            let names = chart.labelledBy.split(separator: " ")
            #expect(names.count == 2 && names[0].hasSuffix("-title") && names[1].hasSuffix("-desc"))
            #expect(chart.width > 200, "\(chart.figure) is drawn too small")
        }
    }

    private func chart(_ report: Chromium.PageReport, _ name: String) -> Chromium.PageReport.Chart? {
        report.charts.first { $0.figure == "figure-\(name)" }
    }

    @Test func hostileReportSetLoadsCleanAndShowsMarkupAsText() throws {
        let chromium = try browser()
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let set = hostileSet()
        _ = try ReportWriter(directory: root.path).write(set)
        let october = set.months[1]
        let account = october.rows("flagged_accounts.csv")[0].text("account_id")
        let casePage = root.appendingPathComponent("2026-10/" + AccountPagePath.relative(account))
        let pages = [
            root.appendingPathComponent("index.html"), root.appendingPathComponent("2026-09/report.html"),
            root.appendingPathComponent("2026-10/report.html"), root.appendingPathComponent("2026-11/report.html"),
            casePage,
        ]
        let (reports, console) = try chromium.inspect(pages)
        #expect(console.isEmpty, "console: \(console)")
        try #require(reports.count == pages.count)
        reports.forEach(expectClean)
        let (index, september, monthPage, november, caseReport) = (
            reports[0], reports[1], reports[2], reports[3], reports[4]
        )

        // Injected markup is on the page as the characters it is (cut at 200 like all data).
        #expect(monthPage.text.contains(HTMLWriterTests.hostileProduct))
        #expect(monthPage.text.contains("<b>x</b>\"'><svg onload=alert(3)>"))
        #expect(caseReport.text.contains("Account <b>x</b>\"'><svg onload=alert(3)>"))
        #expect(index.text.contains("A note with <b>markup</b> & \"quotes\"."))
        #expect(index.text.contains("--no-verify was used"))

        // Each chart has one bar or point per value of the data.
        let months = set.months.count
        #expect(chart(index, "churn")?.points == 2 * months)
        #expect(chart(index, "refunds")?.bars == months)
        #expect(chart(index, "refund-rate")?.points == 2)  // November has no sales: no rate
        #expect(chart(index, "billing-recovery")?.bars == 3 * months)
        #expect(chart(index, "net-revenue-usd")?.bars == months)
        #expect(chart(monthPage, "churn-reasons")?.bars == 4)  // billing error, customer canceled, refunded, unknown
        #expect(chart(monthPage, "churn-by-product")?.bars == 2 * 3)  // two products, three churn types
        #expect(chart(monthPage, "billing-outcomes")?.bars == 4)
        #expect(chart(september, "churn-reasons")?.bars == 2)
        #expect(november.charts.isEmpty)
        #expect(chart(caseReport, "timeline")?.points == october.flaggedTimelines[0].events.count)
        // The account links from the month page to its case page (checked as a link above) and back.
        #expect(monthPage.links >= 8 && caseReport.links >= 2)
    }

    /// A 3,000-character product ID made a table scroll with only its first two columns visible, and
    /// a 5,000-character account ID overflowed the case page's heading.
    @Test func veryLongIDsKeepEveryPageWithinItsWidth() throws {
        let chromium = try browser()
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let product = "com.example." + String(repeating: "p", count: 3_000)
        let account = String(repeating: "a", count: 5_000)
        let set = Fixtures.set(months: [Fixtures.september(), Fixtures.october(productId: product, accountId: account)])
        _ = try ReportWriter(directory: root.path).write(set)
        let pages = [
            root.appendingPathComponent("index.html"), root.appendingPathComponent("2026-10/report.html"),
            root.appendingPathComponent("2026-10/" + AccountPagePath.relative(account)),
        ]
        let (reports, _) = try chromium.inspect(pages)
        try #require(reports.count == pages.count)
        for report in reports {
            #expect(report.loaded)
            #expect(report.overflows.isEmpty, "\(report.url): \(report.overflows.prefix(5))")
        }
        // The whole value is still there for whoever hovers (cut at 2,000 on the page; whole in the CSV).
        let month = try String(contentsOf: pages[1], encoding: .utf8)
        #expect(month.contains("title=\"com.example.ppp"))
    }

    /// The inspector itself: a page with a dead link, a missing image, a script and an event handler is reported as
    /// such, so the clean results above mean something.
    @Test func inspectorSeesWhatIsBroken() throws {
        let chromium = try browser()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("broken.html")
        try """
        <!DOCTYPE html><html><head><title>broken</title></head><body onload="void 0">
        <a href="missing.html">x</a> <a href="#nowhere">y</a> <img src="missing.png" alt="">
        <script>console.error("boom")</script></body></html>
        """.write(to: page, atomically: true, encoding: .utf8)
        let (reports, console) = try chromium.inspect([page])
        let report = try #require(reports.first)
        #expect(report.brokenLinks == ["missing.html", "#nowhere"])
        #expect(report.brokenImages == ["missing.png"])
        #expect(report.scripts == 1 && report.elementsWithEventHandlers == 1)
        #expect(console.contains { $0.contains("boom") })
    }

    @Test func sampleReportsLoadCleanAndEveryLinkResolves() throws {
        let chromium = try browser()
        let reports = Self.packageRoot.appendingPathComponent("reports")
        let files = try FileManager.default.subpathsOfDirectory(atPath: reports.path).sorted()
        let html = files.filter { $0.hasSuffix(".html") }.map { reports.appendingPathComponent($0) }
        try #require(html.count > 20, "the committed sample reports have HTML pages")
        let (pages, console) = try chromium.inspect(html)
        #expect(console.isEmpty, "console: \(console)")
        #expect(pages.count == html.count)
        pages.forEach(expectClean)
        // At a laptop's 1400 px nothing is clipped: no table wider than the page, no chart label past the chart's edge.
        for page in pages {
            #expect(page.overflows.isEmpty, "\(page.url): \(page.overflows.prefix(5))")
        }
        let index = try #require(pages.first { $0.url.hasSuffix("/reports/index.html") })
        let months = files.filter { $0.hasSuffix("/report.html") }.count
        #expect(chart(index, "churn")?.points == 2 * months)
        #expect(chart(index, "refunds")?.bars == months)
        // Every case page has its timeline chart.
        for page in pages where page.url.contains("/accounts/") {
            #expect(page.charts.count == 1 && page.charts[0].points > 0, "\(page.url)")
        }

        // The Markdown pages: every link and image target exists beside them.
        for markdown in files.filter({ $0.hasSuffix(".md") }) {
            let url = reports.appendingPathComponent(markdown)
            let text = try String(contentsOf: url, encoding: .utf8)
            for target in Self.markdownTargets(text) where !target.hasPrefix("#") {
                let path = String(target.split(separator: "#", maxSplits: 1)[0]).removingPercentEncoding ?? target
                let resolved = url.deletingLastPathComponent().appendingPathComponent(path).standardized
                #expect(FileManager.default.fileExists(atPath: resolved.path), "\(markdown) links to missing \(target)")
            }
        }
    }

    /// At a phone's 390 px. Before: the headline values were off-screen, the case page's figures hidden and chart text
    /// shrank to about 3 px. After: the page never scrolls sideways as a whole (wide tables and charts scroll inside
    /// their own box), headline values are in the window, and no text is drawn under 9 px.
    @Test func sampleReportsReadOnAPhone() throws {
        let chromium = try browser()
        let reports = Self.packageRoot.appendingPathComponent("reports")
        let files = try FileManager.default.subpathsOfDirectory(atPath: reports.path).sorted()
        let months = files.filter { $0.hasSuffix("/report.html") }
        let cases = files.filter { $0.contains("/accounts/") && $0.hasSuffix(".html") }
        let html = (["index.html"] + months.suffix(2) + cases.prefix(2)).map { reports.appendingPathComponent($0) }
        let (pages, console) = try chromium.inspect(html, width: 390)
        #expect(console.isEmpty, "console: \(console)")
        #expect(pages.count == html.count)
        for page in pages {
            #expect(page.pageOverflow == 0, "\(page.url) scrolls sideways by \(page.pageOverflow) px")
            #expect(page.smallText.isEmpty, "\(page.url): \(page.smallText.prefix(5))")
            #expect(page.figuresOutside.isEmpty, "\(page.url): \(page.figuresOutside.prefix(5))")
        }
    }

    @Test func screenshotsOfTheIndexAMonthAndACasePage() throws {
        let chromium = try browser()
        let reports = Self.packageRoot.appendingPathComponent("reports")
        let shots = Self.packageRoot.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let months = try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { $0.hasPrefix("20") }
            .sorted()
        let last = try #require(months.last)
        let accounts = reports.appendingPathComponent("\(last)/accounts")
        let casePage = try #require(try FileManager.default.contentsOfDirectory(atPath: accounts.path).sorted().first)
        let hostile = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: hostile) }
        _ = try ReportWriter(directory: hostile.path).write(hostileSet())
        let targets: [(String, URL, Int)] = [
            ("index", reports.appendingPathComponent("index.html"), 4_000),
            ("month-\(last)", reports.appendingPathComponent("\(last)/report.html"), 5_000),
            ("case-\(last)", accounts.appendingPathComponent(casePage), 2_200),
            ("hostile-month", hostile.appendingPathComponent("2026-10/report.html"), 5_000),
        ]
        for (name, page, height) in targets {
            let file = shots.appendingPathComponent("\(name).png")
            try? FileManager.default.removeItem(at: file)
            let run = try chromium.screenshot(page, to: file, height: height)
            #expect(run.status == 0)
            let bytes = try Data(contentsOf: file)
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name) is not a PNG")
            #expect(bytes.count > 30_000, "\(name) looks blank (\(bytes.count) bytes)")
        }
    }

    @Test func sameDataGivesByteIdenticalHTMLAndSVG() throws {
        let first = try temporaryFolder()
        let second = try temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        _ = try ReportWriter(directory: first.path).write(hostileSet())
        _ = try ReportWriter(directory: second.path).write(hostileSet())
        let files = try FileManager.default.subpathsOfDirectory(atPath: first.path).sorted()
        #expect(files == (try FileManager.default.subpathsOfDirectory(atPath: second.path).sorted()))
        #expect(files.filter { $0.hasSuffix(".svg") }.count > 10 && files.filter { $0.hasSuffix(".html") }.count == 5)
        for file in files where file.hasSuffix(".html") || file.hasSuffix(".svg") || file.hasSuffix(".css") {
            let a = try Data(contentsOf: first.appendingPathComponent(file))
            let b = try Data(contentsOf: second.appendingPathComponent(file))
            #expect(a == b, "\(file) differs between two runs")
        }
    }

    /// The targets of `[text](target)` and `![alt](target)` in a Markdown page.
    static func markdownTargets(_ text: String) -> [String] {
        var targets: [String] = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            targets.append(String(after[..<close]))
            rest = after[close...]
        }
        return targets
    }
}
