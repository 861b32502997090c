/// One cell of a report table. Money and counts are integers; everything else is text.
public enum ReportValue: Sendable, Equatable, Hashable {
    case text(String)
    case integer(Int64)
    case empty
}

/// One CSV file of the report contract (Documentation/Reports.md), in memory: its file name, header and rows,
/// already sorted by the contract's key columns.
public struct ReportTable: Sendable, Equatable {
    /// File name under the month folder, e.g. `churn.csv`.
    public let name: String
    /// Header row, exactly as Documentation/Reports.md names the columns.
    public let columns: [String]
    /// Data rows; each has `columns.count` cells.
    public var rows: [[ReportValue]]

    /// Creates a table.
    public init(name: String, columns: [String], rows: [[ReportValue]] = []) {
        self.name = name
        self.columns = columns
        self.rows = rows
    }

    /// The values of one column, by header name (empty when the column does not exist).
    public func column(_ header: String) -> [ReportValue] {
        guard let index = columns.firstIndex(of: header) else { return [] }
        return rows.map { $0[index] }
    }
}
