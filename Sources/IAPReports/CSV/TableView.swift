import IAPAnalytics

/// How one CSV file is shown as a Markdown table: which columns, under which readable headers, formatted how.
struct TableView {
    /// How a cell is shown.
    enum Format {
        /// Data text, escaped.
        case text
        /// A count, right-aligned.
        case count
        /// A `_milli` amount in the row's `currency`, as `1234.56 USD`.
        case money
        /// A code translated to words (escaped).
        case words((String) -> String)
    }

    /// One shown column.
    struct Column {
        let source: String
        let title: Markdown
        let format: Format

        init(_ source: String, _ title: Markdown, _ format: Format = .text) {
            self.source = source
            self.title = title
            self.format = format
        }
    }

    let file: String
    let columns: [Column]

    /// The Markdown table of the month's file, or a sentence when it has no rows.
    func render(_ month: MonthReport, limit: Int = 50, emptyText: String = "Nothing to report.") -> String {
        let rows = month.rows(file)
        guard !rows.isEmpty else { return "_\(emptyText)_" }
        var table = MarkdownTable(
            columns: columns.map { column in
                switch column.format {
                case .count, .money: MarkdownTable.Column(column.title, .right)
                case .text, .words: MarkdownTable.Column(column.title)
                }
            })
        table.rows = rows.map { row in columns.map { Self.cell(row, $0) } }
        return table.render(limit: limit, fullFile: file)
    }

    static func cell(_ row: ReportRow, _ column: Column) -> Markdown {
        switch column.format {
        case .text:
            return Markdown(text: row.text(column.source))
        case .count:
            return Markdown(text: row.text(column.source))
        case .money:
            if case .empty = row[column.source] { return "" }
            return Markdown(text: MoneyText.amount(row.integer(column.source), currency: row.text("currency")))
        case .words(let words):
            return Markdown(text: words(row.text(column.source)))
        }
    }
}
