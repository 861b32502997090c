import Testing

@testable import IAPReports

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reports folder changes only when a whole report is in: files are staged as the months render (so memory
/// holds a few months' files, not all) and put in place together at the end.
@Suite struct ReportFolderUpdateTests {
    /// Every file under `folder`, relative, sorted.
    private func tree(_ folder: String) -> [String] {
        ReportFileSystem.entries(of: folder).sorted().flatMap { name -> [String] in
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { return [] }
            return (info.st_mode & S_IFMT) == S_IFDIR ? tree(path).map { name + "/" + $0 } : [name]
        }
    }

    @Test func nothingIsInPlaceBeforeTheEndAndAnUnfinishedUpdateLeavesNoTrace() throws {
        // Given a reports folder with last run's October
        let root = try temporaryFolder("update")
        let first = try ReportFolderUpdate(directory: root)
        try first.add([(root + "/2026-10/churn.csv", Array("old\n".utf8))])
        _ = try first.finish(months: ["2026-10"], pruneMonths: true)
        let before = tree(root)
        // When a new report stages two months and is dropped before it finishes (a failure in a later month)
        do {
            let update = try ReportFolderUpdate(directory: root)
            try update.add([(root + "/2026-10/churn.csv", Array("new\n".utf8))])
            try update.add([(root + "/2026-11/churn.csv", Array("new\n".utf8))])
            // Then, while it runs, only temporaries exist beside the old files
            #expect(ReportFileSystem.contents(of: root + "/2026-10/churn.csv") == Array("old\n".utf8))
            #expect(!tree(root).contains("2026-11/churn.csv"))
            #expect(tree(root).contains { $0.hasPrefix("2026-10/churn.csv.tmp-") })
        }
        // And once dropped, the folder holds what it held: no new file, no temporary
        #expect(tree(root) == before)
    }

    @Test func aFinishedUpdatePutsEveryMonthInPlaceAndCountsWhatDidNotChange() throws {
        // Given October as last run wrote it
        let root = try temporaryFolder("update")
        let first = try ReportFolderUpdate(directory: root)
        try first.add([(root + "/2026-10/churn.csv", Array("same\n".utf8))])
        _ = try first.finish(months: ["2026-10"], pruneMonths: true)
        // When October (unchanged) and November (new) come in two groups and the update finishes
        let update = try ReportFolderUpdate(directory: root)
        try update.add([(root + "/2026-10/churn.csv", Array("same\n".utf8))])
        try update.add([
            (root + "/2026-11/churn.csv", Array("new\n".utf8)), (root + "/2026-11/charts/a.svg", Array("<svg/>".utf8)),
        ])
        let summary = try update.finish(months: ["2026-10", "2026-11"], pruneMonths: true)
        // Then both months are in place, only the new files were written, and the manifest names them all
        #expect(summary.unchanged == [root + "/2026-10/churn.csv"])
        #expect(summary.written == [root + "/2026-11/churn.csv", root + "/2026-11/charts/a.svg"])
        #expect(
            ReportManifest.read(in: root).paths == ["2026-10/churn.csv", "2026-11/churn.csv", "2026-11/charts/a.svg"])
        #expect(!tree(root).contains { $0.contains(".tmp-") })
    }
}
