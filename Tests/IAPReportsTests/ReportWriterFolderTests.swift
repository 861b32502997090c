import IAPAnalytics
import Testing

@testable import IAPReports

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whoever can write into the reports folder must not be able to make `report` delete or write
/// files elsewhere. Before: a symlinked `accounts/` had its `*.html` deleted and case pages written through it; a
/// month-named link to another folder was emptied by the clean-up of months the data no longer has.
@Suite struct ReportWriterFolderTests {
    private func write(_ text: String, to path: String) throws {
        try ReportFileSystem.writeAtomically(Array(text.utf8), to: path)
    }

    @Test func aLinkedAccountsFolderIsNeitherWrittenNorCleaned() throws {
        // Given someone else's folder with a page of theirs, and the month's accounts/ a link to it
        let base = try temporaryFolder("links")
        let elsewhere = base + "/elsewhere"
        try ReportFileSystem.makeDirectory(elsewhere)
        try write("theirs", to: elsewhere + "/index.html")
        let root = base + "/reports"
        try ReportFileSystem.makeDirectory(root + "/2026-10")
        #expect(symlink(elsewhere, root + "/2026-10/accounts") == 0)
        // When the set (October has a flagged account) is written
        let summary = try ReportWriter(directory: root).write(Fixtures.set())
        // Then their page is kept, nothing of iaplens's is written there, and the link is named
        #expect(ReportFileSystem.contents(of: elsewhere + "/index.html") == Array("theirs".utf8))
        #expect(ReportFileSystem.entries(of: elsewhere) == ["index.html"])
        #expect(summary.foreign == [root + "/2026-10/accounts"])
        #expect(ReportFileSystem.contents(of: root + "/2026-10/report.html") != nil)
    }

    @Test func aLinkedChartsFolderKeepsItsFilesWhenTheDataChanges() throws {
        let base = try temporaryFolder("links")
        let root = base + "/reports"
        let writer = ReportWriter(directory: root)
        _ = try writer.write(Fixtures.set())
        // Given the top-level charts/ replaced by a link to a folder of someone's SVGs
        let elsewhere = base + "/art"
        try ReportFileSystem.makeDirectory(elsewhere)
        try write("<svg/>", to: elsewhere + "/logo.svg")
        for name in ReportFileSystem.entries(of: root + "/charts") { unlink(root + "/charts/" + name) }
        #expect(rmdir(root + "/charts") == 0)
        #expect(symlink(elsewhere, root + "/charts") == 0)
        // When a different set is written
        let summary = try writer.write(Fixtures.set(months: [Fixtures.october()]))
        // Then their SVG is still there and nothing was added beside it
        #expect(ReportFileSystem.entries(of: elsewhere) == ["logo.svg"])
        #expect(summary.foreign == [root + "/charts"])
    }

    @Test func aMonthNamedLinkIsNotEmptiedByTheCleanUp() throws {
        // Given a month-named link to a folder whose files carry iaplens's names
        let base = try temporaryFolder("links")
        let elsewhere = base + "/backup"
        try ReportFileSystem.makeDirectory(elsewhere + "/charts")
        try write("month\n", to: elsewhere + "/churn.csv")
        try write("# theirs", to: elsewhere + "/report.md")
        try write("<svg/>", to: elsewhere + "/charts/churn-reasons.svg")
        let root = base + "/reports"
        try ReportFileSystem.makeDirectory(root)
        #expect(symlink(elsewhere, root + "/2019-01") == 0)
        // When every month the data has is written (the clean-up of other months runs)
        let summary = try ReportWriter(directory: root).write(Fixtures.set(), pruneMonths: true)
        // Then the folder it points to is untouched, and so is the link
        #expect(ReportFileSystem.entries(of: elsewhere).sorted() == ["charts", "churn.csv", "report.md"])
        #expect(ReportFileSystem.entries(of: elsewhere + "/charts") == ["churn-reasons.svg"])
        #expect(!summary.removed.contains { $0.hasPrefix(root + "/2019-01") })
    }

    @Test func onlyFilesIaplensWroteAreRemoved() throws {
        let root = try temporaryFolder("links")
        let writer = ReportWriter(directory: root)
        _ = try writer.write(Fixtures.set())
        // Given a chart someone put beside iaplens's, named like one
        try write("<svg/>", to: root + "/2026-10/charts/my-chart.svg")
        try write("<html/>", to: root + "/2026-10/accounts/notes.html")
        // When October flags another account instead
        let summary = try writer.write(
            Fixtures.set(months: [Fixtures.september(), Fixtures.october(accountId: "acct|8")]))
        // Then iaplens's case page goes; their files stay
        #expect(summary.removed.contains(root + "/2026-10/accounts/acct_7-0cda15b4c3a3.html"))
        #expect(ReportFileSystem.contents(of: root + "/2026-10/accounts/acct_7-0cda15b4c3a3.html") == nil)
        #expect(ReportFileSystem.contents(of: root + "/2026-10/charts/my-chart.svg") != nil)
        #expect(ReportFileSystem.contents(of: root + "/2026-10/accounts/notes.html") != nil)
    }

    @Test func aReportFileReplacedByALinkIsReplacedNotFollowed() throws {
        let base = try temporaryFolder("links")
        try write("secret", to: base + "/target.txt")
        let root = base + "/reports"
        _ = try ReportWriter(directory: root).write(Fixtures.set())
        unlink(root + "/2026-10/churn.csv")
        #expect(symlink(base + "/target.txt", root + "/2026-10/churn.csv") == 0)
        _ = try ReportWriter(directory: root).write(Fixtures.set())
        #expect(ReportFileSystem.contents(of: base + "/target.txt") == Array("secret".utf8))
        var info = stat()
        #expect(lstat(root + "/2026-10/churn.csv", &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)
    }
}
