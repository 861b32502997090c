import IAPAnalytics
import IAPFormats

/// Writes a ``ReportSet`` to disk: per month its CSV files (``ReportColumns/files``), `report.md` and `report.html`
/// with their charts and case pages, then `index.md` and `index.html`.
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

    /// Writes, for every month, its CSV files (``ReportColumns/files``), `report.md` with its charts (`charts/*.svg`),
    /// `report.html` and a case page per flagged account (`accounts/*.html`); then `index.md`, `index.html`, their
    /// charts and the one stylesheet, `style.css`.
    ///
    /// A month lacking one of the files gets it with the header row only, as the contract requires of every month
    /// folder. Every table is checked before anything is written, so a malformed set leaves the folder untouched.
    /// Charts and case pages that a month no longer has (an account no longer flagged) are removed; nothing else is.
    /// - Parameter set: The report set.
    /// - Returns: The paths written and the paths already up to date.
    /// - Throws: ``ReportWriterError`` naming the month, file or path that failed.
    /// - Parameter pruneMonths: True when the set holds every month the data has (no `--month`): month folders it
    ///   does not hold are left over from earlier data (a run once dated into the future) and are removed when they
    ///   hold only files iaplens writes; a folder with anything else in it is left alone.
    public func write(_ set: ReportSet, pruneMonths: Bool = false) throws(ReportWriterError) -> ReportWriteSummary {
        // The folder's other months (after `--month`, read back from their CSVs): the index lists them, a month page
        // compares with the one before it, and a case page links to the account's other months, as after a full run.
        let readBack =
            pruneMonths ? .init() : ReportFolderReader.months(in: directory, skipping: Set(set.months.map(\.month)))
        let others = readBack.months
        let indexSet = others.isEmpty ? set : set.with(months: (set.months + others).sorted { $0.month < $1.month })
        let flagged = FlaggedAccountIndex(indexSet)
        var folders: [String] = []
        for month in set.months {
            guard let parsed = CalendarMonth(month.month) else { throw .invalidMonth(month: month.month) }
            let folder = join(directory, parsed.text)
            for file in ReportColumns.files {
                try Self.check(Self.table(file, of: month), path: join(folder, file.name))
            }
            folders.append(folder)
        }
        let update = try ReportFolderUpdate(directory: directory)
        // The months render on every core (pages are pure functions of the set), a core's worth at a time: each
        // group's files are staged before the next is rendered, so memory holds a few months' files, not all.
        try ParallelMap.forEach(Array(zip(set.months.indices, folders))) { index, folder in
            Self.monthFiles(set, index: index, folder: folder, flagged: flagged, others: others)
        } consume: { monthFiles throws(ReportWriterError) in
            try update.add(monthFiles)
        }
        var files: [(path: String, bytes: [UInt8])] = []
        func add(_ path: String, _ text: String) { files.append((path, Array(text.utf8))) }
        let monthsTable = Self.monthsTable(indexSet, alsoHolding: readBack.damagedMonths)
        files.append((join(directory, ReportColumns.monthsFileName), CSVFormatter.render(monthsTable)))
        files.append((join(directory, ReportColumns.cohortsFileName), CSVFormatter.render(set.cohorts)))
        let index = IndexPageRenderer.page(indexSet)
        add(join(directory, "index.md"), MarkdownWriter.render(index))
        add(join(directory, "index.html"), HTMLWriter.render(index))
        files += Self.chartFiles(index, in: directory)
        add(join(directory, Stylesheet.fileName), Stylesheet.css)
        try update.add(files)
        var summary = try update.finish(months: Set(set.months.map(\.month)), pruneMonths: pruneMonths)
        summary.warnings = set.warnings + readBack.unreadable
        return summary
    }

    /// The files of one month: its CSVs, `report.md` and `report.html` with their charts, its case pages.
    private static func monthFiles(
        _ set: ReportSet, index: Int, folder: String, flagged: FlaggedAccountIndex, others: [MonthReport]
    ) -> [(path: String, bytes: [UInt8])] {
        let month = set.months[index]
        var files: [(path: String, bytes: [UInt8])] = []
        func add(_ name: String, _ text: String) { files.append((joined(folder, name), Array(text.utf8))) }
        for file in ReportColumns.files {
            files.append((joined(folder, file.name), CSVFormatter.render(table(file, of: month))))
        }
        // Compare with the calendar month before only: a gap (months picked with --month) is not "last month". That
        // month comes from this run, else from the folder (an earlier run wrote it).
        let before = CalendarMonth(month.month)?.previous
        let previous =
            index > 0 && CalendarMonth(set.months[index - 1].month) == before
            ? set.months[index - 1] : others.first { CalendarMonth($0.month) == before }
        let markdown = MonthPageRenderer.page(month: month, previous: previous, set: set, format: .markdown)
        add("report.md", MarkdownWriter.render(markdown))
        files += chartFiles(markdown, in: folder)
        let html = MonthPageRenderer.page(month: month, previous: previous, set: set, format: .html)
        add("report.html", HTMLWriter.render(html))
        for row in month.rows("flagged_accounts.csv") {
            let page = CasePageRenderer.page(account: row, month: month, set: set, index: flagged)
            add(AccountPagePath.relative(row.text("account_id")), HTMLWriter.render(page))
        }
        return files
    }

    /// `months.csv`: one row per month folder the reports folder holds, with what its figures rest on (from the
    /// store, so a folder that cannot be read back keeps its row: `damaged`).
    static func monthsTable(_ set: ReportSet, alsoHolding damaged: [String] = []) -> ReportTable {
        let held = Set(set.months.map(\.month)).union(damaged).sorted()
        let rows: [[ReportValue]] = held.map { name in
            let month = set.archiveMonth(name)
            return [
                .text(name),
                .text(ProvisionalMonth.isProvisional(name, asOf: set.asOf) ? "true" : "false"),
                month.firstArchiveDay.map(ReportValue.text) ?? .empty,
                month.lastArchiveDay.map(ReportValue.text) ?? .empty,
                .integer(month.archiveDays), .integer(month.appleDaysCovered),
            ]
        }
        return ReportTable(name: ReportColumns.monthsFileName, columns: ReportColumns.months, rows: rows)
    }

    /// A month's table for one of the report files; a month lacking it gets the header row only.
    private static func table(_ file: ReportColumns.File, of month: MonthReport) -> ReportTable {
        month.table(file.name) ?? ReportTable(name: file.name, columns: file.columns)
    }

    /// The SVG files of a page's charts, in `<folder>/charts/`.
    private static func chartFiles(_ page: Page, in folder: String) -> [(path: String, bytes: [UInt8])] {
        page.blocks.compactMap { block in
            guard case .chart(let spec) = block else { return nil }
            return (joined(folder, "charts/" + spec.name + ".svg"), Array(SVGChart.render(spec).utf8))
        }
    }

    private static func check(_ table: ReportTable, path: String) throws(ReportWriterError) {
        for (index, row) in table.rows.enumerated() where row.count != table.columns.count {
            throw .rowWidthMismatch(path: path, row: index + 1, expected: table.columns.count, found: row.count)
        }
    }

    private func join(_ folder: String, _ name: String) -> String { Self.joined(folder, name) }

    private static func joined(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
