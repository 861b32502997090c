/// Writes a ``Page`` as GitHub-flavoured Markdown (`report.md`, `index.md`).
///
/// Data is escaped by ``Markdown/escape(_:limit:)``; charts become an image of the SVG file beside the page, the
/// caption, and the Mermaid block folded under it.
enum MarkdownWriter {
    static func render(_ page: Page) -> String {
        var blocks = ["# " + inline(page.title)]
        blocks += page.blocks.map(block)
        return blocks.joined(separator: "\n\n") + "\n"
    }

    static func block(_ block: Block) -> String {
        switch block {
        case .heading(let level, let text, _):
            return String(repeating: "#", count: min(max(level, 1), 6)) + " " + inline(text)
        case .paragraph(let text):
            return inline(text)
        case .aside(let text):
            return "_" + inline(text) + "_"
        case .callout(let texts, _):
            return texts.map { "> " + inline($0) }.joined(separator: "\n>\n")
        case .list(let items):
            return items.map { "- " + inline($0, lineStart: true) }.joined(separator: "\n")
        case .table(let table):
            return self.table(table)
        case .chart(let spec):
            var text = "![" + Markdown.escape(spec.title) + "](charts/" + spec.name + ".svg)"
            if !spec.caption.isEmpty { text += "\n\n_" + inline(spec.caption) + "_" }
            if let mermaid = MermaidChart.markdown(spec) {
                text += "\n\n<details><summary>Chart data (Mermaid)</summary>\n\n" + mermaid + "\n\n</details>"
            }
            return text
        }
    }

    private static func table(_ table: PageTable) -> String {
        var lines: [String] = []
        lines.append("| " + table.columns.map { inline($0.title) }.joined(separator: " | ") + " |")
        lines.append(
            "| " + table.columns.map { $0.alignment == .right ? "---:" : "---" }.joined(separator: " | ") + " |")
        for row in table.rows.prefix(table.limit) {
            let cells = table.columns.indices.map { $0 < row.count ? inline(row[$0]) : "" }
            lines.append("| " + cells.map { $0.isEmpty ? " " : $0 }.joined(separator: " | ") + " |")
        }
        if let cut = table.cutLine {
            lines.append("")
            lines.append(inline(cut))
        }
        return lines.joined(separator: "\n")
    }

    /// Inline Markdown. `lineStart`: the text opens a list item, where a leading `-`, `+`, `=` or `1.` of data would
    /// open a nested list or a heading.
    static func inline(_ text: Text, lineStart: Bool = false) -> String {
        var out = ""
        for (index, span) in text.spans.enumerated() {
            switch span {
            case .prose(let words):
                out += Markdown.escape(words, limit: .max)
            case .data(let value):
                out += lineStart && index == 0 ? Markdown(lineStart: value).source : Markdown.escape(value)
            case .strong(let inner):
                out += "**" + inline(inner) + "**"
            case .emphasis(let inner):
                out += "_" + inline(inner) + "_"
            case .code(let name):
                out += name.contains("`") ? Markdown.escape(name) : "`" + name + "`"
            case .link(let inner, let href):
                out += "[" + inline(inner) + "](" + PageLink.encode(href) + ")"
            case .unbroken(let inner):
                out += inline(inner, lineStart: lineStart && index == 0)
            }
        }
        return out
    }
}
