import Foundation
import IAPAnalytics
import Testing

@testable import IAPReports

/// A month read back from the folder is believed only whole: one with a file deleted or edited by hand is left out of
/// the index and of comparisons, with a sentence, instead of being read as a month of zeros (before: the index showed
/// it with no subscribers and the next month compared with nothing).
@Suite struct ReportFolderReaderTests {
    private func folderWithTwoMonths() throws -> (root: String, writer: ReportWriter) {
        let root = try temporaryFolder("readback")
        let writer = ReportWriter(directory: root)
        _ = try writer.write(Fixtures.set(months: [Fixtures.september(), Fixtures.october()]), pruneMonths: true)
        return (root, writer)
    }

    @Test(
        arguments: [
            ("a file deleted", "subscriptions.csv", nil, "subscriptions.csv: the file is missing"),
            (
                "a broken quote", "churn.csv", "month,product_id,churn_type,reason,subscriptions\n2026-09,\"x,1\n",
                "churn.csv: line 2"
            ),
            ("another header", "refunds.csv", "month,refunds\n2026-09,4\n", "refunds.csv: its header is not month,"),
            (
                "a short row", "mrr.csv", "month,product_id,currency,active_end,period,mrr_milli\n2026-09,p\n",
                "mrr.csv: line 2 has 2 cells"
            ),
        ] as [(String, String, String?, String)])
    func aDamagedMonthIsLeftOutWithASentence(what: String, file: String, content: String?, reason: String) throws {
        let (root, writer) = try folderWithTwoMonths()
        let monthsBefore = String(
            decoding: try #require(ReportFileSystem.contents(of: root + "/months.csv")), as: UTF8.self)
        #expect(monthsBefore.contains("\n2026-09,") && monthsBefore.contains("\n2026-10,"))
        let path = root + "/2026-09/" + file
        if let content {
            try ReportFileSystem.writeAtomically(Array(content.utf8), to: path)
        } else {
            #expect(ReportFileSystem.removeFile(path))
        }
        let summary = try writer.write(Fixtures.set(months: [Fixtures.october()]))
        let warning = try #require(summary.warnings.first { $0.contains("2026-09") }, "\(what)")
        #expect(warning.contains(reason) && warning.contains("without --month"), "\(what): \(warning)")
        let page = String(
            decoding: try #require(ReportFileSystem.contents(of: root + "/2026-10/report.md")), as: UTF8.self)
        #expect(!page.contains("| Figure | 2026-10 | 2026-09 | Change |"), "\(what)")
        // Still a month folder the reports folder holds: months.csv keeps its row, from the store (before: left out).
        let months = String(decoding: try #require(ReportFileSystem.contents(of: root + "/months.csv")), as: UTF8.self)
        #expect(months == monthsBefore, "\(what)")
    }

    @Test func aWholeMonthIsReadBackWithoutAWord() throws {
        let (root, writer) = try folderWithTwoMonths()
        let summary = try writer.write(Fixtures.set(months: [Fixtures.october()]))
        #expect(summary.warnings.allSatisfy { !$0.contains("2026-09") })
        let months = String(decoding: try #require(ReportFileSystem.contents(of: root + "/months.csv")), as: UTF8.self)
        #expect(months.contains("\n2026-09,"))
    }
}

/// The reader follows no symbolic link in the reports folder, as the writer writes through none (Documentation/
/// Reports.md "What `report` removes"): a linked month folder or report CSV is named and left out (before: read
/// through the link, and a linked CSV was said to be missing).
@Suite struct ReportFolderReaderLinkTests {
    @Test func aLinkedMonthFolderOrFileIsNamedAndNotFollowed() throws {
        let root = try temporaryFolder("readback-links")
        let elsewhere = try temporaryFolder("readback-elsewhere")
        let writer = ReportWriter(directory: root)
        _ = try writer.write(Fixtures.set(months: [Fixtures.september(), Fixtures.october()]), pruneMonths: true)
        let files = FileManager.default
        try files.moveItem(atPath: root + "/2026-09", toPath: elsewhere + "/2026-09")
        try files.createSymbolicLink(atPath: root + "/2026-09", withDestinationPath: elsewhere + "/2026-09")
        var summary = try writer.write(Fixtures.set(months: [Fixtures.october()]))
        #expect(
            summary.warnings.contains { $0.contains("2026-09 is a symbolic link or a file") }, "\(summary.warnings)")
        let months = String(decoding: try #require(ReportFileSystem.contents(of: root + "/months.csv")), as: UTF8.self)
        #expect(!months.contains("\n2026-09,"))

        try files.removeItem(atPath: root + "/2026-09")
        try files.moveItem(atPath: elsewhere + "/2026-09", toPath: root + "/2026-09")
        try files.moveItem(atPath: root + "/2026-09/churn.csv", toPath: elsewhere + "/churn.csv")
        try files.createSymbolicLink(atPath: root + "/2026-09/churn.csv", withDestinationPath: elsewhere + "/churn.csv")
        summary = try writer.write(Fixtures.set(months: [Fixtures.october()]))
        #expect(summary.warnings.contains { $0.contains("churn.csv: it is a symbolic link") }, "\(summary.warnings)")
        // The folder itself is real: it keeps its row in months.csv, as a damaged one does.
        let monthsAfter = String(
            decoding: try #require(ReportFileSystem.contents(of: root + "/months.csv")), as: UTF8.self)
        #expect(monthsAfter.contains("\n2026-09,"))
    }
}
