/// A chart's data as a Mermaid `xychart-beta` block, which the common code hosts draw.
///
/// The SVG file beside the page is the picture every viewer shows; this block keeps the contract's Mermaid charts
/// (Documentation/Reports.md) and the charted numbers as text in the page, where a diff of two runs shows them. Labels come from
/// data (product IDs), so every label goes through ``label(_:)``: Mermaid has no escaping that works in every
/// renderer, so characters with syntax meaning are replaced instead.
enum MermaidChart {
    /// The block for a chart over categories; nil for a timeline or a chart without categories.
    static func block(_ spec: ChartSpec) -> String? {
        guard case .categorical(let data) = spec.body, !data.categories.isEmpty, !data.series.isEmpty else {
            return nil
        }
        // xychart has no stacked columns, but it draws later bar series over earlier ones: cumulative sums from the
        // whole column down to the first series look stacked.
        var drawn: [(kind: String, values: [Int64], colour: String)] = []
        switch data.kind {
        case .lines:
            drawn = data.series.enumerated().map { ("line", $1.values.map { $0 ?? 0 }, ChartStyle.colour($0)) }
        case .groupedColumns:
            drawn = data.series.enumerated().map { ("bar", $1.values.map { $0 ?? 0 }, ChartStyle.colour($0)) }
        case .stackedColumns:
            for top in data.series.indices.reversed() {
                let sums = data.categories.indices.map { c in
                    data.series[0...top].reduce(Int64(0)) { $0 &+ (c < $1.values.count ? $1.values[c] ?? 0 : 0) }
                }
                drawn.append(("bar", sums, ChartStyle.colour(top)))
            }
        }
        var lines = [
            "---",
            "config:",
            "    themeVariables:",
            "        xyChart:",
            "            plotColorPalette: \"\(drawn.map(\.colour).joined(separator: ", "))\"",
            "---",
            "xychart-beta",
            "    title \"\(label(spec.title))\"",
            "    x-axis [" + data.categories.map { "\"\(label($0))\"" }.joined(separator: ", ") + "]",
            "    y-axis \"\(label(data.axisTitle))\"",
        ]
        for entry in drawn {
            lines.append("    \(entry.kind) [" + entry.values.map { number($0, data.unit) }.joined(separator: ", ") + "]")
        }
        return "```mermaid\n" + lines.joined(separator: "\n") + "\n```"
    }

    /// A value as a Mermaid number: plain decimal with an ASCII minus.
    static func number(_ value: Int64, _ unit: ChartSpec.ValueUnit) -> String {
        switch unit {
        case .count: String(value)
        case .money(let currency): MoneyText.chartValue(value, currency: currency)
        case .percentTenths: (value < 0 ? "-" : "") + "\(value.magnitude / 10).\(value.magnitude % 10)"
        }
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
}
