import IAPFormats
import IAPAnalytics

/// Writes a ``ReportSet`` to disk: eight CSV files and `report.md` per month, then `index.md`.
///
/// Each file is written atomically and only when its bytes changed, so a rerun on the same data touches nothing
/// (mtimes, file watchers and sync tools stay quiet). Months no longer in the set are left as they are.
public struct ReportWriter: Sendable {
    /// The reports folder (`--reports DIR`): months go to `<directory>/<YYYY-MM>/`, the index to
    /// `<directory>/index.md`.
    public let directory: String

    /// Creates a writer for a reports folder; nothing is touched until ``write(_:)``.
    /// - Parameter directory: The reports folder; created with its parents when missing.
    public init(directory: String) {
        self.directory = directory
    }

    /// Writes `<YYYY-MM>/{churn,expiration_intents,billing_retry,refunds,consumable_losses,flagged_accounts,
    /// reconciliation,order_lookups}.csv` and `<YYYY-MM>/report.md` for every month, then `index.md`.
    ///
    /// A month lacking one of the files gets it with the header row only, as the contract requires of every month
    /// folder. Every table is checked before anything is written, so a malformed set leaves the folder untouched.
    /// - Parameter set: The report set.
    /// - Returns: The paths written and the paths already up to date.
    /// - Throws: ``ReportWriterError`` naming the month, file or path that failed.
    public func write(_ set: ReportSet) throws(ReportWriterError) -> ReportWriteSummary {
        var files: [(path: String, bytes: [UInt8])] = []
        var folders: [String] = [directory]
        for (index, month) in set.months.enumerated() {
            guard let parsed = CalendarMonth(month.month) else { throw .invalidMonth(month: month.month) }
            let folder = join(directory, parsed.text)
            folders.append(folder)
            for file in ReportColumns.files {
                let table = month.table(file.name) ?? ReportTable(name: file.name, columns: file.columns)
                let path = join(folder, file.name)
                try Self.check(table, path: path)
                files.append((path, CSVFormatter.render(table)))
            }
            // Compare with the calendar month before only: a gap (months picked with --month) is not "last month".
            let previous =
                index > 0 && CalendarMonth(set.months[index - 1].month) == parsed.previous
                ? set.months[index - 1] : nil
            let page = MonthPageRenderer.render(month: month, previous: previous, set: set)
            files.append((join(folder, "report.md"), Array(page.utf8)))
        }
        files.append((join(directory, "index.md"), Array(IndexPageRenderer.render(set).utf8)))

        for folder in folders { try ReportFileSystem.makeDirectory(folder) }
        // A run killed while writing leaves `<name>.tmp-<pid>` behind; the run lock says no writer is alive.
        let names = Set(files.map { ($0.path as String).split(separator: "/").last.map(String.init) ?? "" })
        for folder in folders { ReportFileSystem.removeStaleTemporaries(in: folder, names: names) }
        var summary = ReportWriteSummary()
        for file in files {
            if ReportFileSystem.contents(of: file.path) == file.bytes {
                summary.unchanged.append(file.path)
            } else {
                try ReportFileSystem.writeAtomically(file.bytes, to: file.path)
                summary.written.append(file.path)
            }
        }
        return summary
    }

    private static func check(_ table: ReportTable, path: String) throws(ReportWriterError) {
        for (index, row) in table.rows.enumerated() where row.count != table.columns.count {
            throw .rowWidthMismatch(path: path, row: index + 1, expected: table.columns.count, found: row.count)
        }
    }

    private func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
