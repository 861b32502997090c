/// Mermaid chart blocks (```` ```mermaid ````) that render on the common code hosts.
///
/// Labels come from data (product IDs, reason codes), so every label goes through ``label(_:)``: Mermaid has no
/// escaping that works in every renderer, so characters with syntax meaning are replaced instead.
enum MermaidChart {
    /// A pie chart; slices with a zero value are left out. Nil when nothing is left to draw.
    static func pie(title: String, slices: [(label: String, value: Int64)]) -> String? {
        let drawn = slices.filter { $0.value > 0 }
        guard !drawn.isEmpty else { return nil }
        var lines = ["pie showData", "    title \(label(title))"]
        for slice in drawn {
            lines.append("    \"\(label(slice.label))\" : \(slice.value)")
        }
        return block(lines)
    }

    /// One series of an `xychart-beta`.
    struct Series {
        enum Kind: String {
            case bar
            case line
        }

        let kind: Kind
        /// Values as Mermaid numbers (plain decimal with ASCII minus), one per category.
        let values: [String]
    }

    /// An `xychart-beta` with categorical x axis; nil when there is no category.
    ///
    /// xychart has no legend, so the caller names the colours in the text around the chart; `palette` fixes them
    /// (one CSS colour per series, in order) so that caption and chart agree on every renderer.
    static func xyChart(
        title: String, categories: [String], yAxis: String, series: [Series], palette: [String]
    ) -> String? {
        guard !categories.isEmpty, !series.isEmpty else { return nil }
        var lines = [
            "---",
            "config:",
            "    themeVariables:",
            "        xyChart:",
            "            plotColorPalette: \"\(palette.joined(separator: ", "))\"",
            "---",
            "xychart-beta",
            "    title \"\(label(title))\"",
            "    x-axis [" + categories.map { "\"\(label($0))\"" }.joined(separator: ", ") + "]",
            "    y-axis \"\(label(yAxis))\"",
        ]
        for entry in series {
            lines.append("    \(entry.kind.rawValue) [" + entry.values.joined(separator: ", ") + "]")
        }
        return block(lines)
    }

    /// A label Mermaid cannot misread: quotes, `:`, `;`, `#`, brackets, braces, angle brackets, backticks,
    /// backslashes and line breaks become spaces, runs of spaces collapse, and long labels are cut.
    static func label(_ text: String) -> String {
        var out = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let replace =
                "\"'`:;#[](){}<>\\|%&=".unicodeScalars.contains(scalar)
                || scalar.properties.generalCategory == .control
                || scalar.properties.isWhitespace
                || ("\u{202A}"..."\u{202E}").contains(scalar) || ("\u{2066}"..."\u{2069}").contains(scalar)
            if replace {
                if !lastWasSpace && !out.isEmpty { out += " " }
                lastWasSpace = true
            } else {
                out.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        while out.hasSuffix(" ") { out.removeLast() }
        if out.isEmpty { return "(blank)" }
        if out.unicodeScalars.count > 40 {
            var cut = ""
            cut.unicodeScalars.append(contentsOf: out.unicodeScalars.prefix(39))
            return cut + "…"
        }
        return out
    }

    private static func block(_ lines: [String]) -> String {
        "```mermaid\n" + lines.joined(separator: "\n") + "\n```"
    }
}
