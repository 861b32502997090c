/// Writes a ``Page`` as a self-contained HTML page: no script, no network, one shared stylesheet (`style.css` at
/// the top of the reports folder, linked relatively), charts as inline SVG. A Content-Security-Policy forbids
/// scripts and remote loads, a second wall behind the escaping.
enum HTMLWriter {
    static func render(_ page: Page) -> String {
        let up = String(repeating: "../", count: page.depth)
        var lines = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'self' file:; "
                + "img-src 'self' file: data:\">",
            "<title>" + plain(page.title) + "</title>",
            "<link rel=\"stylesheet\" href=\"\(up)style.css\">",
            "</head>",
            "<body>",
            "<main>",
            "<h1>" + inline(page.title) + "</h1>",
        ]
        lines += page.blocks.map(block)
        lines += [
            "</main>",
            "<footer>Written by iaplens. The CSV files beside each month's page are the authoritative figures.</footer>",
            "</body>",
            "</html>",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    static func block(_ block: Block) -> String {
        switch block {
        case .heading(let level, let text, let anchor):
            let tag = "h\(min(max(level, 1), 6))"
            let id = anchor.map { " id=\"\(HTMLText.escape($0))\"" } ?? ""
            return "<\(tag)\(id)>" + inline(text) + "</\(tag)>"
        case .paragraph(let text):
            return "<p>" + inline(text) + "</p>"
        case .aside(let text):
            return "<p class=\"aside\">" + inline(text) + "</p>"
        case .callout(let texts, let kind):
            let role = kind == .warning ? "alert" : "note"
            return "<div class=\"callout \(kind == .warning ? "warning" : "note")\" role=\"\(role)\">"
                + texts.map { "<p>" + inline($0) + "</p>" }.joined() + "</div>"
        case .list(let items):
            return "<ul>" + items.map { "<li>" + inline($0) + "</li>" }.joined() + "</ul>"
        case .table(let table):
            return self.table(table)
        case .chart(let spec):
            var figure = "<figure class=\"chart-figure\" id=\"figure-\(spec.name)\">\n" + SVGChart.render(spec)
            if !spec.caption.isEmpty { figure += "<figcaption>" + inline(spec.caption) + "</figcaption>\n" }
            return figure + "</figure>"
        }
    }

    /// Longer unbroken cell text is cut on the page with an ellipsis (`td.long`).
    static let longToken = 48

    private static func table(_ table: PageTable) -> String {
        var lines = ["<div class=\"table-wrap\"><table>", "<thead><tr>"]
        for column in table.columns {
            lines.append(
                "<th scope=\"col\"\(column.alignment == .right ? " class=\"num\"" : "")>" + inline(column.title)
                    + "</th>")
        }
        lines.append("</tr></thead>")
        lines.append("<tbody>")
        for row in table.rows.prefix(table.limit) {
            var cells = "<tr>"
            for (index, column) in table.columns.enumerated() {
                let cell = index < row.count ? row[index] : Text()
                // One token (an ID, a timestamp) never breaks inside; words wrap at their spaces.
                var classes = column.alignment == .right ? ["num"] : []
                var title = ""
                if !cell.plain.contains(" ") && !cell.isEmpty { classes.append("nw") }
                // A very long token (a 3,000-character product ID) would push every other column off the page: it
                // ends in an ellipsis, the whole value in its title (and in the CSV).
                if !cell.plain.contains(" ") && cell.plain.unicodeScalars.count > Self.longToken {
                    classes.append("long")
                    title = " title=\"" + HTMLText.escape(cell.plain, limit: 2_000) + "\""
                }
                let attribute = classes.isEmpty ? "" : " class=\"\(classes.joined(separator: " "))\""
                cells += "<td\(attribute)\(title)>" + inline(cell) + "</td>"
            }
            lines.append(cells + "</tr>")
        }
        lines.append("</tbody></table></div>")
        if let cut = table.cutLine { lines.append("<p class=\"aside\">" + inline(cut) + "</p>") }
        return lines.joined(separator: "\n")
    }

    /// Inline HTML: data escaped and cut, our words escaped.
    static func inline(_ text: Text) -> String {
        var out = ""
        for span in text.spans {
            switch span {
            case .prose(let words): out += HTMLText.escape(words)
            case .data(let value): out += HTMLText.escape(value, limit: Text.maximumDataLength)
            case .strong(let inner): out += "<strong>" + inline(inner) + "</strong>"
            case .emphasis(let inner): out += "<em>" + inline(inner) + "</em>"
            case .code(let name):
                // A name or option stays on one line (a phone would break `--reviews` after its dashes); a command with
                // spaces may wrap between its words.
                out +=
                    (name.contains(" ") ? "<code class=\"wrap\">" : "<code>")
                    + HTMLText.escape(name, limit: Text.maximumDataLength) + "</code>"
            case .link(let inner, let href):
                out += "<a href=\"" + HTMLText.escape(htmlTarget(href)) + "\">" + inline(inner) + "</a>"
            case .unbroken(let inner): out += "<span class=\"nw\">" + inline(inner) + "</span>"
            }
        }
        return out
    }

    /// Text without markup, for `<title>`.
    private static func plain(_ text: Text) -> String {
        HTMLText.escape(text.plain, limit: 300)
    }

    /// Links between pages point at the HTML twin of a Markdown page (`2026-10/report.md` → `2026-10/report.html`).
    static func htmlTarget(_ href: String) -> String {
        let encoded = PageLink.encode(href)
        guard let hash = encoded.firstIndex(of: "#") else {
            return encoded.hasSuffix(".md") ? String(encoded.dropLast(3)) + ".html" : encoded
        }
        let path = encoded[..<hash]
        return (path.hasSuffix(".md") ? String(path.dropLast(3)) + ".html" : String(path)) + encoded[hash...]
    }
}
