/// One block of a report page. Sections describe themselves as blocks; ``MarkdownWriter`` and ``HTMLWriter`` turn
/// the same blocks into `report.md` and `report.html`, so both show the same sections and figures.
enum Block: Equatable {
    /// A heading; level 1 is the page title. `anchor` is the fragment other blocks link to (`#finance`).
    case heading(level: Int, Text, anchor: String? = nil)
    /// A paragraph.
    case paragraph(Text)
    /// A paragraph shown quieter: a hint below a table, an empty-table sentence.
    case aside(Text)
    /// Sentences every reader must see, near the top of a page.
    case callout([Text], kind: CalloutKind)
    /// A bulleted list.
    case list([Text])
    /// A table.
    case table(PageTable)
    /// A chart drawn as SVG (a file beside the Markdown page, inline in the HTML page).
    case chart(ChartSpec)

    /// How loud a callout is.
    enum CalloutKind: Equatable {
        case note
        case warning
    }
}

/// A table of a page: titled columns, rows of inline text, and, for long tables, the cut and the file with the rest.
struct PageTable: Equatable {
    /// Column alignment: numbers line up on the right.
    enum Alignment: Equatable {
        case left
        case right
    }

    /// One header cell and its alignment.
    struct Column: Equatable {
        let title: Text
        let alignment: Alignment

        init(_ title: Text, _ alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    let columns: [Column]
    var rows: [[Text]] = []
    /// Rows shown before the cut; long tables are for the CSV, not for a page people scroll.
    var limit: Int = .max
    /// The CSV that holds every row, linked in the cut line.
    var fullFile: String? = nil

    init(columns: [Column], rows: [[Text]] = [], limit: Int = .max, fullFile: String? = nil) {
        self.columns = columns
        self.rows = rows
        self.limit = limit
        self.fullFile = fullFile
    }

    /// `… 10 more rows in churn.csv.` when the table is cut; nil otherwise.
    var cutLine: Text? {
        guard rows.count > limit else { return nil }
        let rest = rows.count - limit
        var line: Text = "… \(rest) more " + .prose(rest == 1 ? "row" : "rows")
        if let fullFile { line += " in " + .link(.data(fullFile), to: fullFile) }
        return line + "."
    }
}

/// A whole page: its title (the `<title>` of the HTML page and the first heading) and its blocks.
struct Page: Equatable {
    /// The title, plain text from our words and data.
    let title: Text
    /// The blocks after the title heading.
    let blocks: [Block]
    /// The folder depth below the reports folder (0 for the index, 1 for a month, 2 for a case page): how far the
    /// shared stylesheet is.
    let depth: Int
}
