import IAPAnalytics

/// How one CSV file is shown as a page table: which columns, under which readable headers, formatted how.
struct TableView {
    /// How a cell is shown.
    enum Format {
        /// Data text, escaped.
        case text
        /// A count, right-aligned, thousands grouped (`48,101`).
        case count
        /// A `_milli` amount in the row's `currency`, as `1234.56 USD` (the currency's own minor units).
        case money
        /// A code translated to words (escaped).
        case words((String) -> String)
        /// Data text with a link to a page made from it (a flagged account's case page).
        case link((String) -> String?)
    }

    /// One shown column.
    struct Column {
        let source: String
        let title: Text
        let format: Format

        init(_ source: String, _ title: Text, _ format: Format = .text) {
            self.source = source
            self.title = title
            self.format = format
        }
    }

    let file: String
    let columns: [Column]

    /// The table of the month's file, or a sentence when it has no rows.
    func render(_ month: MonthReport, limit: Int = 50, emptyText: Text = "Nothing to report.") -> Block {
        let rows = month.rows(file)
        guard !rows.isEmpty else { return .aside(emptyText) }
        let table = PageTable(
            columns: columns.map { column in
                switch column.format {
                case .count, .money: PageTable.Column(column.title, .right)
                case .text, .words, .link: PageTable.Column(column.title)
                }
            },
            rows: rows.map { row in columns.map { Self.cell(row, $0) } },
            limit: limit, fullFile: file)
        return .table(table)
    }

    static func cell(_ row: ReportRow, _ column: Column) -> Text {
        switch column.format {
        case .text:
            return .data(row.text(column.source))
        case .count:
            if case .empty = row[column.source] { return Text() }
            return .count(row.integer(column.source))
        case .money:
            if case .empty = row[column.source] { return Text() }
            return .money(row.integer(column.source), currency: row.text("currency"))
        case .words(let words):
            return .data(words(row.text(column.source)))
        case .link(let target):
            let value = row.text(column.source)
            guard let href = target(value) else { return .data(value) }
            return .link(.data(value), to: href)
        }
    }
}
