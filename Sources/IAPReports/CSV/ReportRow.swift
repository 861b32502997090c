import IAPAnalytics

/// One row of a ``ReportTable`` read by column name, so the renderers survive appended columns.
struct ReportRow {
    private let columns: [String: Int]
    private let cells: [ReportValue]

    init(columns: [String: Int], cells: [ReportValue]) {
        self.columns = columns
        self.cells = cells
    }

    /// The cell of a column; `.empty` when the column or cell is missing.
    subscript(_ column: String) -> ReportValue {
        guard let index = columns[column], index < cells.count else { return .empty }
        return cells[index]
    }

    /// An integer cell (text that is a plain integer counts too); 0 otherwise.
    func integer(_ column: String) -> Int64 {
        switch self[column] {
        case .integer(let value): return value
        case .text(let text): return Int64(text) ?? 0
        case .empty: return 0
        }
    }

    /// A cell as text, as it would be read in the CSV (without the formula guard).
    func text(_ column: String) -> String {
        switch self[column] {
        case .integer(let value): return String(value)
        case .text(let text): return text
        case .empty: return ""
        }
    }
}

extension ReportTable {
    /// The rows, addressable by column name.
    var namedRows: [ReportRow] {
        var index: [String: Int] = [:]
        for (position, column) in columns.enumerated() where index[column] == nil {
            index[column] = position
        }
        return rows.map { ReportRow(columns: index, cells: $0) }
    }
}

extension MonthReport {
    /// The rows of one of the month's files (none when the file is missing).
    func rows(_ file: String) -> [ReportRow] {
        table(file)?.namedRows ?? []
    }
}
