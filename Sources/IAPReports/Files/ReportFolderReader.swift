import IAPAnalytics
import IAPFormats

/// Reads back the month folders a reports folder already holds, from their CSV files (the authoritative figures),
/// so that `index.md` and `index.html` always list every month the folder has, also after `report --month` wrote
/// only some of them.
enum ReportFolderReader {
    /// The months in `directory` whose folder holds at least one report CSV, except `skipping`, in month order.
    static func months(in directory: String, skipping: Set<String>) -> [MonthReport] {
        ReportFileSystem.entries(of: directory).sorted().compactMap { name -> MonthReport? in
            guard CalendarMonth(name)?.text == name, !skipping.contains(name) else { return nil }
            return month(name, folder: directory + "/" + name)
        }
    }

    private static func month(_ name: String, folder: String) -> MonthReport? {
        var tables: [ReportTable] = []
        var found = false
        for file in ReportColumns.files {
            var table = ReportTable(name: file.name, columns: file.columns)
            if let csv = try? CSVTable.read(path: folder + "/" + file.name, keepSpaces: true), let header = csv.records.first {
                found = true
                let positions = file.columns.map { header.fields.firstIndex(of: $0) }
                table.rows = csv.records.dropFirst().map { record in
                    positions.map { position in
                        guard let position, position < record.fields.count, !record.fields[position].isEmpty else {
                            return .empty
                        }
                        return .text(unguarded(record.fields[position]))
                    }
                }
            }
            tables.append(table)
        }
        guard found else { return nil }
        let isEmpty = tables.allSatisfy { !ReportColumns.countedActivityFiles.contains($0.name) || $0.rows.isEmpty }
        return MonthReport(month: name, tables: tables, flaggedTimelines: [], isEmpty: isEmpty)
    }

    /// A cell as it was before the writer's spreadsheet guard (a `'` before `=`, `+`, `-`, `@`, tab or CR).
    private static func unguarded(_ cell: String) -> String {
        guard cell.hasPrefix("'"), let second = cell.dropFirst().first, "=+-@\t\r".contains(second) else { return cell }
        return String(cell.dropFirst())
    }
}
