/// A GitHub-flavoured Markdown table whose cells are already ``Markdown`` (data escaped, markup trusted).
struct MarkdownTable {
    /// Column alignment: numbers line up on the right.
    enum Alignment {
        case left
        case right
    }

    /// One header cell and its alignment.
    struct Column {
        let title: Markdown
        let alignment: Alignment

        init(_ title: Markdown, _ alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    let columns: [Column]
    var rows: [[Markdown]] = []

    /// The table source; at most `limit` rows, then a line saying how many more there are and where to find them.
    /// - Parameters:
    ///   - limit: Rows shown before the cut; long tables are for the CSV, not for a page people scroll.
    ///   - fullFile: The CSV that holds every row, linked in the cut line.
    func render(limit: Int = 50, fullFile: String? = nil) -> String {
        var lines: [String] = []
        lines.append("| " + columns.map(\.title.source).joined(separator: " | ") + " |")
        lines.append("| " + columns.map { $0.alignment == .right ? "---:" : "---" }.joined(separator: " | ") + " |")
        for row in rows.prefix(limit) {
            let cells = columns.indices.map { $0 < row.count ? row[$0].source : "" }
            lines.append("| " + cells.map { $0.isEmpty ? " " : $0 }.joined(separator: " | ") + " |")
        }
        if rows.count > limit {
            let rest = rows.count - limit
            let place = fullFile.map { " in [\($0)](\($0))" } ?? ""
            lines.append("")
            lines.append("… \(rest) more \(rest == 1 ? "row" : "rows")\(place).")
        }
        return lines.joined(separator: "\n")
    }
}
