/// Data escaped for a Markdown page, so that it renders as the literal text it is. ``MarkdownWriter`` uses it for
/// every data and prose span of a ``Text``; product IDs, account IDs, order IDs and notes come from hostile data.
struct Markdown: Equatable {
    /// The Markdown source.
    let source: String

    /// Data, escaped so that it renders as the literal text it is, inside a table cell or a paragraph.
    init(text: String) {
        source = Self.escape(text)
    }

    /// Data that starts a line of its own (a list item's text): also escapes a leading `+`, `-`, `=` or a number
    /// followed by `.` or `)`, which would otherwise open a nested list or a heading.
    init(lineStart text: String) {
        let escaped = Self.escape(text)
        let scalars = Array(escaped.unicodeScalars)
        let digits = scalars.prefix { $0.properties.numericType == .decimal && $0.isASCII }
        if let first = scalars.first, "+-=".unicodeScalars.contains(first) {
            source = "\\" + escaped
        } else if !digits.isEmpty, digits.count < scalars.count, ".)".unicodeScalars.contains(scalars[digits.count]) {
            var prefix = ""
            prefix.unicodeScalars.append(contentsOf: digits)
            source = prefix + "\\" + String(escaped.unicodeScalars.dropFirst(digits.count))
        } else {
            source = escaped
        }
    }

    /// Longest data text shown in one place; the CSV keeps the full value.
    static let maximumTextLength = Text.maximumDataLength

    /// Escapes data for inline use (table cell, paragraph, heading text after our own prefix).
    ///
    /// - Line breaks and other control characters become a space: a newline would end a table row.
    /// - `&`, `<`, `>` and the backtick become entities: no HTML (`<script>`), no code spans, no entity tricks.
    /// - `|` and the Markdown punctuation that could start emphasis, links, strike-through or maths is
    ///   backslash-escaped. An `_` between two letters or digits cannot start emphasis, so IDs such as
    ///   `gold_monthly` keep their underscore readable in the raw file.
    /// - Bidirectional overrides become U+FFFD so an ID cannot disguise itself in a reviewer's view.
    static func escape(_ text: String, limit: Int = maximumTextLength) -> String {
        let scalars = Array(text.unicodeScalars.prefix(limit))
        var out = ""
        out.reserveCapacity(scalars.count)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "`": out += "&#96;"
            case "\\", "|", "*", "~", "[", "]", "$", "#", "!", "{", "}":
                out += "\\" + String(scalar)
            case "_":
                let before = index > 0 ? scalars[index - 1] : nil
                let after = index + 1 < scalars.count ? scalars[index + 1] : nil
                out += isWordScalar(before) && isWordScalar(after) ? "_" : "\\_"
            case "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}", "\u{200E}", "\u{200F}":
                out += "\u{FFFD}"
            default:
                if isControl(scalar) || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    out += " "
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        if text.unicodeScalars.count > limit { out += "…" }
        return out
    }

    /// General category Cc, answered without the Unicode tables for ASCII (the reports' IDs and amounts):
    /// the table lookup was a fifth of `report`'s time on a year of a large app.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
        return scalar.properties.generalCategory == .control
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}
