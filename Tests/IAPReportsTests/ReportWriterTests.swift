import IAPAnalytics
import Testing

@testable import IAPReports

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct ReportWriterTests {
    private func modificationTime(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
    }

    @Test func writesTheExpectedFiles() throws {
        // Given an empty folder and a two-month set
        let root = try temporaryFolder("reports") + "/reports"
        // When the set is written
        let summary = try ReportWriter(directory: root).write(Fixtures.set())
        // Then every month has its CSV files, report.md with its charts, report.html and a case page per flagged
        // account, and the index exists in both formats with its charts and the one stylesheet
        var expected: [String] = []
        for month in ["2026-09", "2026-10"] {
            expected += ReportColumns.files.map { "\(root)/\(month)/\($0.name)" }
            expected.append("\(root)/\(month)/report.md")
            expected += ["churn-reasons", "churn-by-product", "billing-outcomes"].map {
                "\(root)/\(month)/charts/\($0).svg"
            }
            expected.append("\(root)/\(month)/report.html")
        }
        expected.append("\(root)/2026-10/accounts/acct_7-0cda15b4c3a3.html")
        expected += ["\(root)/months.csv", "\(root)/cohorts.csv", "\(root)/index.md", "\(root)/index.html"]
        expected += [
            "churn", "refunds", "refund-rate", "consumable-losses-usd", "billing-recovery", "billing-recovery-rate",
            "net-revenue-usd",
        ]
        .map { "\(root)/charts/\($0).svg" }
        expected.append("\(root)/style.css")
        #expect(summary.written == expected)
        #expect(summary.unchanged.isEmpty)
        for path in expected { #expect(ReportFileSystem.contents(of: path) != nil) }
        let churn = ReportFileSystem.contents(of: "\(root)/2026-09/expiration_intents.csv")
        #expect(churn == Array("month,product_id,expiration_intent,subscriptions\n".utf8))
    }

    @Test func rerunLeavesFilesUntouched() throws {
        let root = try temporaryFolder("reports")
        let writer = ReportWriter(directory: root)
        let first = try writer.write(Fixtures.set())
        let before = first.written.map { (ReportFileSystem.contents(of: $0), modificationTime($0)) }
        // When the same set is written again
        let second = try writer.write(Fixtures.set())
        // Then nothing is rewritten: same bytes, same mtimes
        #expect(second.written.isEmpty)
        #expect(second.unchanged == first.written)
        let after = first.written.map { (ReportFileSystem.contents(of: $0), modificationTime($0)) }
        #expect(before.map(\.0) == after.map(\.0))
        #expect(before.map(\.1) == after.map(\.1))
    }

    @Test func changedMonthRewritesOnlyWhatChanged() throws {
        let root = try temporaryFolder("reports")
        let writer = ReportWriter(directory: root)
        _ = try writer.write(Fixtures.set(months: [Fixtures.october()]))
        let summary = try writer.write(Fixtures.set(months: [Fixtures.october(productId: "com.example.platinum")]))
        #expect(summary.written.contains("\(root)/2026-10/churn.csv"))
        #expect(summary.unchanged.contains("\(root)/2026-10/refunds.csv"))
    }

    @Test func outputIsDeterministicAcrossFolders() throws {
        let first = try temporaryFolder("reports")
        let second = try temporaryFolder("reports")
        let a = try ReportWriter(directory: first).write(Fixtures.set())
        let b = try ReportWriter(directory: second).write(Fixtures.set())
        for (left, right) in zip(a.written, b.written) {
            #expect(ReportFileSystem.contents(of: left) == ReportFileSystem.contents(of: right))
        }
    }

    @Test func previousMonthIsTheCalendarMonthBefore() throws {
        let root = try temporaryFolder("reports")
        let gap = MonthReport(
            month: "2026-12", tables: Fixtures.october().tables, flaggedTimelines: [], isEmpty: false)
        _ = try ReportWriter(directory: root).write(Fixtures.set(months: [Fixtures.september(), gap]))
        let page = String(decoding: ReportFileSystem.contents(of: "\(root)/2026-12/report.md") ?? [], as: UTF8.self)
        #expect(page.contains("No previous month in this report set"))
    }

    @Test func badMonthIsRefusedBeforeWriting() throws {
        let root = try temporaryFolder("reports")
        let bad = MonthReport(month: "../../etc", tables: [], flaggedTimelines: [], isEmpty: true)
        #expect(throws: ReportWriterError.invalidMonth(month: "../../etc")) {
            try ReportWriter(directory: root).write(Fixtures.set(months: [bad]))
        }
        #expect(ReportFileSystem.contents(of: "\(root)/index.md") == nil)
    }

    @Test func ragged_row_is_reported_with_its_path() throws {
        let root = try temporaryFolder("reports")
        let month = MonthReport(
            month: "2026-10",
            tables: Fixtures.tables([Fixtures.table("churn.csv", ReportColumns.churn, [[.text("2026-10")]])]),
            flaggedTimelines: [], isEmpty: false)
        #expect(
            throws: ReportWriterError.rowWidthMismatch(path: "\(root)/2026-10/churn.csv", row: 1, expected: 5, found: 1)
        ) {
            try ReportWriter(directory: root).write(Fixtures.set(months: [month]))
        }
        let error = ReportWriterError.rowWidthMismatch(path: "/r/2026-10/churn.csv", row: 1, expected: 5, found: 1)
        #expect(error.description.hasPrefix("Cannot write /r/2026-10/churn.csv: data row 1 has 1 cells"))
    }
}

extension ReportWriterTests {
    @Test func monthFoldersNoLongerWrittenAreRemovedOnlyWhenTheyHoldOnlyIaplensFiles() throws {
        let root = try temporaryFolder("reports")
        let writer = ReportWriter(directory: root)
        // Given three months written, then a fourth folder someone keeps notes in
        _ = try writer.write(
            Fixtures.set(months: [Fixtures.september(), Fixtures.october(), Fixtures.emptyNovember()]))
        try ReportFileSystem.makeDirectory(root + "/2026-12")
        try ReportFileSystem.writeAtomically(Array("mine".utf8), to: root + "/2026-12/notes.txt")
        try ReportFileSystem.writeAtomically(Array("x".utf8), to: root + "/2026-12/churn.csv")
        // When a run for --month writes September only, nothing else goes
        _ = try writer.write(Fixtures.set(months: [Fixtures.september()]))
        #expect(ReportFileSystem.contents(of: root + "/2026-10/report.html") != nil)
        // When the data's months are September and October only (a run once dated into the future is gone)
        let summary = try writer.write(
            Fixtures.set(months: [Fixtures.september(), Fixtures.october()]), pruneMonths: true)
        // Then November's folder, all iaplens's, is removed; December's, with a file of someone else's, is kept
        #expect(ReportFileSystem.contents(of: root + "/2026-11/churn.csv") == nil)
        #expect(summary.removed.contains(root + "/2026-11"))
        #expect(summary.removed.contains(root + "/2026-11/report.md"))
        #expect(ReportFileSystem.contents(of: root + "/2026-12/notes.txt") == Array("mine".utf8))
        #expect(ReportFileSystem.contents(of: root + "/2026-12/churn.csv") != nil)
        #expect(ReportFileSystem.contents(of: root + "/2026-10/accounts/acct_7-0cda15b4c3a3.html") != nil)
    }
}

extension ReportWriterTests {
    /// `report --month 2026-09` into a folder of three months once rewrote the index to link one month.
    @Test func theIndexListsEveryMonthTheFolderHolds() throws {
        let root = try temporaryFolder("reports")
        let writer = ReportWriter(directory: root)
        let full = Fixtures.set(months: [Fixtures.september(), Fixtures.october(), Fixtures.emptyNovember()])
        _ = try writer.write(full)
        let before = try #require(ReportFileSystem.contents(of: root + "/index.md"))
        // When one month is written again alone
        _ = try writer.write(Fixtures.set(months: [Fixtures.september()]))
        let index = String(decoding: try #require(ReportFileSystem.contents(of: root + "/index.md")), as: UTF8.self)
        #expect(
            index.contains("[2026-09](2026-09/report.md) · [2026-10](2026-10/report.md) · [2026-11](2026-11/report.md)")
        )
        // October's figures come back from its CSV files, exactly as the full run showed them
        #expect(
            index.contains(
                "| [2026-10](2026-10/report.md) _provisional_ | 130 | 1,118.70 USD | 1,113.75 USD | 779.63 USD | no report |"
            ))
        #expect(
            index.contains(
                "| [2026-10](2026-10/report.md) _provisional_ | 0 | — (11 of 0) | — (3 of 0) | 1 | — (0 of 0) | 2 recovered, 3 expired, 0 pending | 5 | 3.47 USD | 1 |"
            ))
        #expect(index == String(decoding: before, as: UTF8.self))
    }

    /// `report --month 2026-10` into the folder a full run wrote once replaced October's page, which compared with
    /// September, by one that compared with nothing ("no previous month in this report set"): the month before now
    /// comes back from its CSV files, and the page is the full run's, byte for byte.
    @Test func aMonthWrittenAloneComparesWithTheMonthBeforeInTheFolder() throws {
        let root = try temporaryFolder("reports")
        let writer = ReportWriter(directory: root)
        _ = try writer.write(Fixtures.set(months: [Fixtures.september(), Fixtures.october()]), pruneMonths: true)
        let full = try #require(ReportFileSystem.contents(of: root + "/2026-10/report.md"))
        _ = try writer.write(Fixtures.set(months: [Fixtures.october()]))
        let alone = try #require(ReportFileSystem.contents(of: root + "/2026-10/report.md"))
        #expect(String(decoding: alone, as: UTF8.self).contains("| Figure | 2026-10 | 2026-09 | Change |"))
        #expect(alone == full)
    }
}
