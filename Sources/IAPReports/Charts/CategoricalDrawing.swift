/// Columns or lines over categories: value axis with ticks and grid, category labels (thinned or slanted when they
/// do not fit), legend, and one `bar` or `point` element per drawn value.
struct CategoricalDrawing {
    let spec: ChartSpec
    let data: ChartSpec.Categorical

    private let left: Double = 70
    private let right: Double = SVGChart.width - 16
    private let plotHeight: Double = 190
    /// Longest slanted category label; the description and the tooltips keep the whole label.
    private let labelLimit = 18
    /// Widest column: a chart of two categories should not look like two walls.
    private let maximumColumnWidth: Double = 56

    /// Draws the chart; returns the height it needs.
    func draw(on canvas: inout SVGCanvas) -> Double {
        // Provisional months get a legend entry of their own, after the series.
        let names = data.series.map(\.name) + (data.provisional.isEmpty ? [] : ["Provisional month"])
        let legendBottom = canvas.legend(names, x: left, y: 40, right: right) { canvas, index, x, y in
            if index < data.series.count { swatch(&canvas, index, x, y) } else { provisionalSwatch(&canvas, x, y) }
        }
        let top = legendBottom + 12
        let bottom = top + plotHeight
        let values = data.series.flatMap { $0.values.compactMap { $0 } } + stackTotals()
        let scale = AxisScale(values: values, minimumStep: data.unit.minimumStep)
        let y = { (value: Int64) in bottom - scale.fraction(value) * plotHeight }
        let n = SVGMarkup.number

        // Value axis: grid, ticks, title.
        for tick in scale.ticks {
            let colour = tick == 0 ? "#666666" : "#dddddd"
            canvas.add(
                "<line x1=\"\(n(left))\" y1=\"\(n(y(tick)))\" x2=\"\(n(right))\" y2=\"\(n(y(tick)))\" "
                    + "stroke=\"\(colour)\" stroke-width=\"1\"/>")
            canvas.text(data.unit.tick(tick), x: left - 6, y: y(tick) + 4, anchor: "end")
        }
        canvas.text(data.axisTitle, x: 14, y: top + plotHeight / 2, anchor: "middle", rotate: -90)

        let count = max(data.categories.count, 1)
        let band = (right - left) / Double(count)
        switch data.kind {
        case .groupedColumns: drawGrouped(&canvas, band: band, y: y)
        case .stackedColumns: drawStacked(&canvas, band: band, y: y)
        case .lines: drawLines(&canvas, band: band, y: y)
        }
        return drawCategoryLabels(&canvas, band: band, baseline: bottom)
    }

    private func tooltip(_ category: Int, _ series: Int, _ value: Int64) -> String {
        let counts = data.series[series].counts
        let basis = category < counts.count ? counts[category].map { " (\($0))" } ?? "" : ""
        return "\(data.categories[category]) · \(data.series[series].name): \(data.unit.text(value))\(basis)"
    }

    private func drawGrouped(_ canvas: inout SVGCanvas, band: Double, y: (Int64) -> Double) {
        let width = min(band * 0.8 / Double(max(data.series.count, 1)), maximumColumnWidth)
        let group = width * Double(data.series.count)
        for (s, series) in data.series.enumerated() {
            let fill = canvas.columnFill(s)
            for (c, value) in series.values.enumerated() where c < data.categories.count {
                guard let value else { continue }
                let x = left + (Double(c) + 0.5) * band - group / 2 + Double(s) * width
                bar(
                    &canvas, x: x, width: width, from: y(0), to: y(value), fill: fill, series: s,
                    tip: tooltip(c, s, value))
                if data.provisional.contains(c) { hatch(&canvas, x: x, width: width, from: y(0), to: y(value)) }
            }
        }
    }

    private func drawStacked(_ canvas: inout SVGCanvas, band: Double, y: (Int64) -> Double) {
        let width = min(band * 0.7, maximumColumnWidth)
        var positive = [Int64](repeating: 0, count: data.categories.count)
        var negative = positive
        for (s, series) in data.series.enumerated() {
            let fill = canvas.columnFill(s)
            for (c, value) in series.values.enumerated() where c < data.categories.count {
                guard let value else { continue }
                let base = value >= 0 ? positive[c] : negative[c]
                let top = base &+ value
                if value >= 0 { positive[c] = top } else { negative[c] = top }
                let x = left + (Double(c) + 0.5) * band - width / 2
                bar(
                    &canvas, x: x, width: width, from: y(base), to: y(top), fill: fill, series: s,
                    tip: tooltip(c, s, value))
                if data.provisional.contains(c) { hatch(&canvas, x: x, width: width, from: y(base), to: y(top)) }
            }
        }
    }

    /// Sums of each stack, so the axis covers the tallest column.
    private func stackTotals() -> [Int64] {
        guard data.kind == .stackedColumns else { return [] }
        return data.categories.indices.flatMap { c -> [Int64] in
            let values = data.series.compactMap { c < $0.values.count ? $0.values[c] : nil }
            return [
                values.filter { $0 > 0 }.reduce(0, &+), values.filter { $0 < 0 }.reduce(0, &+),
            ]
        }
    }

    private func drawLines(_ canvas: inout SVGCanvas, band: Double, y: (Int64) -> Double) {
        let n = SVGMarkup.number
        for (s, series) in data.series.enumerated() {
            let colour = ChartStyle.colour(s)
            let dash = ChartStyle.dash(s).map { " stroke-dasharray=\"\($0)\"" } ?? ""
            // A line breaks where a value is missing.
            var runs: [[String]] = [[]]
            for (c, value) in series.values.enumerated() where c < data.categories.count {
                guard let value else {
                    runs.append([])
                    continue
                }
                runs[runs.count - 1].append("\(n(left + (Double(c) + 0.5) * band)),\(n(y(value)))")
            }
            for run in runs where run.count > 1 {
                canvas.add(
                    "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"\(dash) points=\""
                        + run.joined(separator: " ") + "\"/>")
            }
            for (c, value) in series.values.enumerated() where c < data.categories.count {
                guard let value else { continue }
                canvas.marker(
                    series: s, x: left + (Double(c) + 0.5) * band, y: y(value), tooltip: tooltip(c, s, value),
                    hollow: data.provisional.contains(c))
            }
        }
    }

    private func bar(
        _ canvas: inout SVGCanvas, x: Double, width: Double, from: Double, to: Double, fill: String, series: Int,
        tip: String
    ) {
        let n = SVGMarkup.number
        canvas.add(
            "<rect class=\"bar\" data-series=\"\(series)\" x=\"\(n(x))\" y=\"\(n(min(from, to)))\" "
                + "width=\"\(n(width))\" height=\"\(n(abs(to - from)))\" fill=\"\(fill)\" stroke=\"\(ChartStyle.colour(series))\" "
                + "stroke-width=\"0.5\"><title>\(SVGMarkup.text(tip))</title></rect>")
    }

    /// The hatch over a provisional month's column: not a value (no `bar` class), so each value stays one element.
    private func hatch(_ canvas: inout SVGCanvas, x: Double, width: Double, from: Double, to: Double) {
        let n = SVGMarkup.number
        let fill = canvas.provisionalFill()
        canvas.add(
            "<rect class=\"provisional-mark\" x=\"\(n(x))\" y=\"\(n(min(from, to)))\" width=\"\(n(width))\" "
                + "height=\"\(n(abs(to - from)))\" fill=\"\(fill)\" pointer-events=\"none\"/>")
    }

    /// The legend's sample for provisional months: a hatched box for columns, a hollow circle for lines.
    private func provisionalSwatch(_ canvas: inout SVGCanvas, _ x: Double, _ y: Double) {
        let n = SVGMarkup.number
        switch data.kind {
        case .groupedColumns, .stackedColumns:
            let fill = canvas.provisionalFill()
            canvas.add(
                "<rect x=\"\(n(x))\" y=\"\(n(y - 6))\" width=\"14\" height=\"12\" fill=\"#bbbbbb\" stroke=\"#666666\" stroke-width=\"0.5\"/>"
            )
            canvas.add("<rect x=\"\(n(x))\" y=\"\(n(y - 6))\" width=\"14\" height=\"12\" fill=\"\(fill)\"/>")
        case .lines:
            canvas.add(
                "<circle cx=\"\(n(x + 7))\" cy=\"\(n(y))\" r=\"4.5\" fill=\"#ffffff\" stroke=\"#1a1a1a\" stroke-width=\"2\"/>"
            )
        }
    }

    private func swatch(_ canvas: inout SVGCanvas, _ index: Int, _ x: Double, _ y: Double) {
        let n = SVGMarkup.number
        switch data.kind {
        case .groupedColumns, .stackedColumns:
            let fill = canvas.columnFill(index)
            canvas.add(
                "<rect x=\"\(n(x))\" y=\"\(n(y - 6))\" width=\"14\" height=\"12\" fill=\"\(fill)\" "
                    + "stroke=\"\(ChartStyle.colour(index))\" stroke-width=\"0.5\"/>")
        case .lines:
            let dash = ChartStyle.dash(index).map { " stroke-dasharray=\"\($0)\"" } ?? ""
            canvas.add(
                "<line x1=\"\(n(x - 2))\" y1=\"\(n(y))\" x2=\"\(n(x + 16))\" y2=\"\(n(y))\" "
                    + "stroke=\"\(ChartStyle.colour(index))\" stroke-width=\"2\"\(dash)/>")
            canvas.add(legendMarker(index, x: x + 7, y: y))
        }
    }

    /// The legend's sample marker: the series' shape, not counted as a value.
    private func legendMarker(_ series: Int, x: Double, y: Double) -> String {
        var sample = SVGCanvas(id: "")
        sample.marker(series: series, x: x, y: y, tooltip: data.series[series].name, isValue: false)
        return sample.lines[0]
    }

    /// Category labels under the plot: every one when they fit, else every k-th; long labels are slanted.
    /// Returns the chart's total height.
    private func drawCategoryLabels(_ canvas: inout SVGCanvas, band: Double, baseline: Double) -> Double {
        // Labels that fit their column are drawn whole (up to 40 characters); others are slanted and cut. Short
        // labels too many to fit side by side (months) are drawn every k-th. One width for both decisions, so no
        // label is both "fitting" and thinned away.
        let fitting = max(Int(band / ChartStyle.characterWidth), 1)
        let longestWhole = data.categories.map { $0.unicodeScalars.count }.max() ?? 0
        let slanted = longestWhole > fitting && longestWhole > 8
        let longest = min(longestWhole, slanted ? labelLimit : 40)
        let every =
            slanted
            ? max(1, Int((14 / band).rounded(.up)))
            : max(1, Int(((Double(longest) * ChartStyle.characterWidth + 8) / band).rounded(.up)))
        for (c, category) in data.categories.enumerated() where c % every == 0 {
            let x = left + (Double(c) + 0.5) * band
            if slanted {
                canvas.text(category, x: x + 3, y: baseline + 14, anchor: "end", rotate: -35, limit: labelLimit)
            } else {
                canvas.text(category, x: x, y: baseline + 16, anchor: "middle", limit: 40)
            }
        }
        return baseline + (slanted ? 24 + Double(longest) * ChartStyle.characterWidth * 0.58 : 30)
    }
}
