/// Draws a ``ChartSpec`` as a standalone SVG document: the same text is written to `charts/<name>.svg` for the
/// Markdown page and put inline in the HTML page.
///
/// Every chart has a visible title, a legend, labelled axes, a `<title>` and a `<desc>` for screen readers (the
/// description lists the values), and one element per drawn value with class `bar` or `point` and a tooltip.
/// Coordinates are written with one decimal from integer data, so the same data gives the same bytes.
enum SVGChart {
    /// Drawing units across. The HTML page scales the chart to its text's width (at most 1284 px), so at 960 the
    /// labels read at about their own size on a laptop screen while 45 months of columns keep room to breathe; a
    /// Markdown viewer shows it as an image scaled to fit.
    static let width: Double = 960

    static func render(_ spec: ChartSpec) -> String {
        var canvas = SVGCanvas(id: "chart-" + spec.name)
        let height: Double
        switch spec.body {
        case .categorical(let data): height = CategoricalDrawing(spec: spec, data: data).draw(on: &canvas)
        case .timeline(let data): height = TimelineDrawing(data: data).draw(on: &canvas)
        }
        let id = canvas.id
        var head = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" "
                + "aria-labelledby=\"\(id)-title \(id)-desc\" width=\"\(SVGMarkup.number(width))\" "
                + "height=\"\(SVGMarkup.number(height))\" viewBox=\"0 0 \(SVGMarkup.number(width)) "
                + "\(SVGMarkup.number(height))\" font-family=\"\(ChartStyle.fontFamily)\" font-size=\"11\">",
            "<title id=\"\(id)-title\">\(SVGMarkup.text(spec.title))</title>",
            "<desc id=\"\(id)-desc\">\(SVGMarkup.text(description(spec), limit: 20_000))</desc>",
        ]
        if !canvas.definitions.isEmpty {
            head.append("<defs>")
            head += canvas.definitions
            head.append("</defs>")
        }
        head.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")
        head.append(
            "<text x=\"12\" y=\"22\" font-size=\"15\" font-weight=\"bold\" fill=\"#1a1a1a\">"
                + SVGMarkup.text(spec.title, limit: 80) + "</text>")
        return (head + canvas.lines + ["</svg>"]).joined(separator: "\n") + "\n"
    }

    /// The chart in words: kind, axes, and every value, for readers who cannot see it.
    static func description(_ spec: ChartSpec) -> String {
        switch spec.body {
        case .categorical(let data):
            let kind =
                switch data.kind {
                case .groupedColumns: "Column chart"
                case .stackedColumns: "Stacked column chart"
                case .lines: "Line chart"
                }
            let span =
                data.categories.count > 1
                ? "from \(data.categories[0]) to \(data.categories[data.categories.count - 1])"
                : data.categories.first.map { "for \($0)" } ?? "with no data"
            var parts = ["\(kind) of \(data.axisTitle) \(span)."]
            for series in data.series {
                let values = zip(data.categories, series.values).map { category, value in
                    "\(category) \(value.map(data.unit.text) ?? "none")"
                }
                parts.append("\(series.name): " + values.joined(separator: ", ") + ".")
            }
            let provisional = data.provisional.sorted().filter { $0 < data.categories.count }.map {
                data.categories[$0]
            }
            if !provisional.isEmpty {
                parts.append("Provisional (may still change): " + provisional.joined(separator: ", ") + ".")
            }
            return parts.joined(separator: " ")
        case .timeline(let data):
            var parts = ["Timeline of \(data.events.count) event\(data.events.count == 1 ? "" : "s")."]
            for event in data.events {
                parts.append(
                    "\(UTCTimestamp.iso8601(unixMilliseconds: event.time)) \(data.lanes[event.lane]): \(event.label).")
            }
            return parts.joined(separator: " ")
        }
    }
}

/// The body of an SVG being drawn: elements, the pattern definitions they use, and the id prefix that keeps ids
/// unique when several charts sit inline in one HTML page.
struct SVGCanvas {
    let id: String
    var lines: [String] = []
    var definitions: [String] = []

    mutating func add(_ line: String) {
        lines.append(line)
    }

    /// A text element; `anchor` is SVG's `text-anchor`.
    mutating func text(
        _ value: String, x: Double, y: Double, anchor: String = "start", size: Double = 11, colour: String = "#333333",
        rotate: Double? = nil, limit: Int = 40
    ) {
        let rotation =
            rotate.map {
                " transform=\"rotate(\(SVGMarkup.number($0)) \(SVGMarkup.number(x)) \(SVGMarkup.number(y)))\""
            } ?? ""
        add(
            "<text x=\"\(SVGMarkup.number(x))\" y=\"\(SVGMarkup.number(y))\" text-anchor=\"\(anchor)\" "
                + "font-size=\"\(SVGMarkup.number(size))\" fill=\"\(colour)\"\(rotation)>"
                + SVGMarkup.text(value, limit: limit) + "</text>")
    }

    /// The fill of a column series: its colour, or a striped pattern in its colour (defined once).
    mutating func columnFill(_ series: Int) -> String {
        let colour = ChartStyle.colour(series)
        guard let angle = ChartStyle.stripeAngle(series) else { return colour }
        let pattern = "\(id)-pattern-\(series)"
        if !definitions.contains(where: { $0.contains("id=\"\(pattern)\"") }) {
            definitions.append(
                "<pattern id=\"\(pattern)\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
                    + "patternTransform=\"rotate(\(angle))\"><rect width=\"6\" height=\"6\" fill=\"\(colour)\"/>"
                    + "<rect width=\"2\" height=\"6\" fill=\"#ffffff\" fill-opacity=\"0.75\"/></pattern>")
        }
        return "url(#\(pattern))"
    }

    /// A marker of a line series or timeline lane at (x, y), with class `point` and a tooltip;
    /// `isValue` false draws a legend sample: no `point` class, so tests and readers count only values.
    /// A value's marker in the series' shape; `hollow` for a provisional month (white inside, the colour as outline).
    mutating func marker(series: Int, x: Double, y: Double, tooltip: String, isValue: Bool = true, hollow: Bool = false)
    {
        let colour = ChartStyle.colour(series)
        let n = SVGMarkup.number
        let role = isValue ? "class=\"point\(hollow ? " provisional" : "")\" data-series=\"\(series)\" " : ""
        let common =
            role
            + (hollow
                ? "fill=\"#ffffff\" stroke=\"\(colour)\" stroke-width=\"2\""
                : "fill=\"\(colour)\" stroke=\"#ffffff\" stroke-width=\"1\"")
        let title = "<title>" + SVGMarkup.text(tooltip) + "</title>"
        switch ChartStyle.marker(series) {
        case .circle:
            add("<circle \(common) cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"4.5\">\(title)</circle>")
        case .square:
            add("<rect \(common) x=\"\(n(x - 4))\" y=\"\(n(y - 4))\" width=\"8\" height=\"8\">\(title)</rect>")
        case .triangle:
            add(
                "<polygon \(common) points=\"\(n(x)),\(n(y - 5.5)) \(n(x + 5)),\(n(y + 4)) \(n(x - 5)),\(n(y + 4))\">"
                    + "\(title)</polygon>")
        case .diamond:
            add(
                "<polygon \(common) points=\"\(n(x)),\(n(y - 5.5)) \(n(x + 5.5)),\(n(y)) \(n(x)),\(n(y + 5.5)) "
                    + "\(n(x - 5.5)),\(n(y))\">\(title)</polygon>")
        }
    }

    /// The cross-hatch laid over a provisional month's columns (defined once).
    mutating func provisionalFill() -> String {
        let pattern = "\(id)-provisional"
        if !definitions.contains(where: { $0.contains("id=\"\(pattern)\"") }) {
            definitions.append(
                "<pattern id=\"\(pattern)\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
                    + "patternTransform=\"rotate(-45)\"><rect width=\"6\" height=\"6\" fill=\"#ffffff\" fill-opacity=\"0.55\"/>"
                    + "<rect width=\"1.5\" height=\"6\" fill=\"#1a1a1a\"/></pattern>")
        }
        return "url(#\(pattern))"
    }

    /// A legend laid out in rows from (x, y); returns the y below it. `swatch` draws one entry's sample.
    mutating func legend(
        _ names: [String], x left: Double, y top: Double, right: Double,
        swatch: (inout SVGCanvas, Int, Double, Double) -> Void
    ) -> Double {
        var x = left
        var y = top
        for (index, name) in names.enumerated() {
            let width = 22 + Double(min(name.unicodeScalars.count, 41)) * ChartStyle.characterWidth + 18
            if x > left && x + width > right {
                x = left
                y += 18
            }
            swatch(&self, index, x, y)
            text(name, x: x + 20, y: y + 4, limit: 40)
            x += width
        }
        return y + 14
    }
}
