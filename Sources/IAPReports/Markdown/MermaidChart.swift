/// A chart's data as Mermaid `xychart-beta` blocks, which the common code hosts draw.
///
/// The SVG file beside the page is the picture every viewer shows; these blocks keep the contract's Mermaid charts
/// (Documentation/Reports.md) and the charted numbers as text in the page, where a diff of two runs shows them. Labels come from
/// data (product IDs), so every label goes through ``label(_:)``: Mermaid has no escaping that works in every
/// renderer, so characters with syntax meaning are replaced instead.
///
/// xychart draws every value it is given and has no gap: a missing value (a rate from a base below the small-bases
/// minimum, a month without data) written as 0 would be a figure the data does not hold. So a chart whose lines or
/// side-by-side columns lack a value somewhere becomes one block per series, each over the categories where that
/// series has a value, and the series without any value are named in a sentence.
enum MermaidChart {
    /// The Markdown inside the chart's folded data: one block, or one per series as above; nil for a timeline or a
    /// chart without categories.
    static func markdown(_ spec: ChartSpec) -> String? {
        guard case .categorical(let data) = spec.body, !data.categories.isEmpty, !data.series.isEmpty else {
            return nil
        }
        let hasGaps =
            data.kind != .stackedColumns
            && data.series.contains { series in
                data.categories.indices.contains { $0 >= series.values.count || series.values[$0] == nil }
            }
        guard hasGaps else {
            return block(title: spec.title, data: data, colours: data.series.indices.map(ChartStyle.colour))
        }
        var parts = [
            "_Mermaid draws no gaps: each series is a chart of its own, over the categories where it has a value._"
        ]
        var empty: [String] = []
        for (index, series) in data.series.enumerated() {
            let kept = data.categories.indices.filter { $0 < series.values.count && series.values[$0] != nil }
            guard !kept.isEmpty else {
                empty.append(label(series.name))
                continue
            }
            let one = ChartSpec.Categorical(
                kind: data.kind, categories: kept.map { data.categories[$0] },
                series: [.init(name: series.name, values: kept.map { series.values[$0] })], unit: data.unit,
                axisTitle: data.axisTitle)
            let title = data.series.count == 1 ? spec.title : series.name
            parts.append(block(title: title, data: one, colours: [ChartStyle.colour(index)]))
        }
        if !empty.isEmpty { parts.append("_Without any value: " + empty.joined(separator: "; ") + "._") }
        return parts.joined(separator: "\n\n")
    }

    /// One block of `data`, whose series have a value in every category (stacked columns: a missing part adds 0).
    private static func block(title: String, data: ChartSpec.Categorical, colours: [String]) -> String {
        // xychart has no stacked columns, but it draws later bar series over earlier ones: cumulative sums from the
        // whole column down to the first series look stacked.
        var drawn: [(kind: String, values: [Int64], colour: String)] = []
        switch data.kind {
        case .lines:
            drawn = data.series.enumerated().map { ("line", $1.values.map { $0 ?? 0 }, colours[$0]) }
        case .groupedColumns:
            drawn = data.series.enumerated().map { ("bar", $1.values.map { $0 ?? 0 }, colours[$0]) }
        case .stackedColumns:
            for top in data.series.indices.reversed() {
                let sums = data.categories.indices.map { c in
                    data.series[0...top].reduce(Int64(0)) { $0 &+ (c < $1.values.count ? $1.values[c] ?? 0 : 0) }
                }
                drawn.append(("bar", sums, colours[top]))
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
            "    title \"\(label(title))\"",
            "    x-axis [" + data.categories.map { "\"\(label($0))\"" }.joined(separator: ", ") + "]",
            "    y-axis \"\(label(data.axisTitle))\"",
        ]
        for entry in drawn {
            lines.append(
                "    \(entry.kind) [" + entry.values.map { number($0, data.unit) }.joined(separator: ", ") + "]")
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
                // "Involuntary (billing), P1M" reads "Involuntary billing, P1M", not "billing , P1M".
                if lastWasSpace && (scalar == "," || scalar == ".") { out.removeLast() }
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
