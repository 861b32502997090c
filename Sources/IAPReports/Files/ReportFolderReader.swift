import IAPAnalytics
import IAPFormats

/// Reads back the month folders a reports folder already holds, from their CSV files (the authoritative figures),
/// so that `index.md` and `index.html` list every month the folder has, also after `report --month` wrote only some
/// of them, and a month page compares with the month before it.
///
/// A month is believed only whole, as iaplens wrote it: every report CSV present, each starting with its columns
/// (a later version may append more) and every row as long as its header. A folder that is not (a file deleted or
/// edited by hand, a folder an older version wrote before a file existed) is left out, with a sentence naming the
/// file and what is wrong, rather than read as a month of zeros.
enum ReportFolderReader {
    /// The months read back, the real month folders that could not be, and a sentence for each folder left out.
    struct ReadBack {
        var months: [MonthReport] = []
        /// Month folders (not links) that are not whole: still folders the reports folder holds, so `months.csv`
        /// keeps a row for each, from the store.
        var damagedMonths: [String] = []
        var unreadable: [String] = []
    }

    /// The months in `directory` whose folder holds at least one report CSV, except `skipping`, in month order.
    static func months(in directory: String, skipping: Set<String>) -> ReadBack {
        var readBack = ReadBack()
        for name in ReportFileSystem.entries(of: directory).sorted() {
            guard CalendarMonth(name)?.text == name, !skipping.contains(name) else { continue }
            guard ReportFileSystem.isRealFolder(directory + "/" + name) else {
                // As the writer, the reader follows no link in the reports folder (Documentation/Reports.md).
                readBack.unreadable.append(
                    "The month folder \(directory)/\(name) is a symbolic link or a file, which iaplens neither follows "
                        + "nor writes into: the index leaves it out and no month is compared with it. Replace it with "
                        + "a real folder and run `iaplens report` without --month.")
                continue
            }
            switch month(name, folder: directory + "/" + name) {
            case .none: continue
            case .some(.success(let report)): readBack.months.append(report)
            case .some(.failure(let problem)):
                readBack.damagedMonths.append(name)
                readBack.unreadable.append(
                    "The month folder \(directory)/\(name) cannot be read back (\(problem.file): \(problem.reason)): "
                        + "the index leaves it out and no month is compared with it. Run `iaplens report` without "
                        + "--month to write every month again.")
            }
        }
        return readBack
    }

    /// Why a month folder is not whole.
    struct Problem: Error {
        let file: String
        let reason: String
    }

    /// nil when the folder holds none of the report CSVs (not a month folder iaplens wrote).
    private static func month(_ name: String, folder: String) -> Result<MonthReport, Problem>? {
        guard ReportColumns.files.contains(where: { ReportFileSystem.exists(folder + "/" + $0.name) }) else {
            return nil
        }
        var tables: [ReportTable] = []
        for file in ReportColumns.files {
            switch table(file, in: folder) {
            case .success(let table): tables.append(table)
            case .failure(let problem): return .failure(problem)
            }
        }
        let isEmpty = tables.allSatisfy { !ReportColumns.countedActivityFiles.contains($0.name) || $0.rows.isEmpty }
        return .success(MonthReport(month: name, tables: tables, flaggedTimelines: [], isEmpty: isEmpty))
    }

    private static func table(_ file: ReportColumns.File, in folder: String) -> Result<ReportTable, Problem> {
        func problem(_ reason: String) -> Result<ReportTable, Problem> {
            .failure(Problem(file: file.name, reason: reason))
        }
        let path = folder + "/" + file.name
        guard ReportFileSystem.exists(path) else { return problem("the file is missing") }
        guard ReportFileSystem.isRegularFile(path) else {
            return problem("it is a symbolic link or a folder, not a file iaplens wrote; iaplens follows no link here")
        }
        let csv: CSVTable
        do {
            csv = try CSVTable.read(path: path, keepSpaces: true)
        } catch {
            let first = error.problems.first
            var message = first?.message ?? "the file cannot be read"
            if message.hasSuffix(".") { message.removeLast() }
            return problem("line \(first?.line ?? 0): \(message)")
        }
        guard let header = csv.records.first, Array(header.fields.prefix(file.columns.count)) == file.columns else {
            return problem("its header is not \(file.columns.joined(separator: ","))")
        }
        var table = ReportTable(name: file.name, columns: file.columns)
        for record in csv.records.dropFirst() {
            guard record.fields.count == header.fields.count else {
                return problem(
                    "line \(record.line) has \(record.fields.count) cells where the header names \(header.fields.count)"
                )
            }
            table.rows.append(
                record.fields.prefix(file.columns.count).map { $0.isEmpty ? .empty : .text(unguarded($0)) })
        }
        return .success(table)
    }

    /// A cell as it was before the writer's spreadsheet guard (a `'` before `=`, `+`, `-`, `@`, tab or CR).
    private static func unguarded(_ cell: String) -> String {
        guard cell.hasPrefix("'"), let second = cell.dropFirst().first, "=+-@\t\r".contains(second) else { return cell }
        return String(cell.dropFirst())
    }
}
