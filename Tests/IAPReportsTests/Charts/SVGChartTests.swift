import Testing

@testable import IAPReports

@Suite struct SVGChartTests {
    private func chart(_ kind: ChartSpec.Categorical.Kind, _ series: [ChartSpec.Series], categories: [String]) -> String
    {
        SVGChart.render(
            ChartSpec(
                name: "t", title: "Title <b>", caption: "",
                body: .categorical(
                    .init(kind: kind, categories: categories, series: series, unit: .count, axisTitle: "Things"))))
    }

    private func count(_ needle: String, in text: String) -> Int {
        var found = 0
        var rest = Substring(text)
        while let range = rest.firstRange(of: needle) {
            found += 1
            rest = rest[range.upperBound...]
        }
        return found
    }

    @Test func oneBarPerValueOfEverySeries() {
        let svg = chart(
            .groupedColumns, [.init(name: "a", values: [1, 0, 3]), .init(name: "b", values: [2, nil, 5])],
            categories: ["x", "y", "z"])
        #expect(count("class=\"bar\"", in: svg) == 5)
        #expect(count("class=\"point\"", in: svg) == 0)
        let stacked = chart(
            .stackedColumns, [.init(name: "a", values: [1, 2]), .init(name: "b", values: [3, 4])],
            categories: ["x", "y"])
        #expect(count("class=\"bar\"", in: stacked) == 4)
    }

    @Test func onePointPerValueAndLinesBreakAtGaps() {
        let svg = chart(.lines, [.init(name: "a", values: [1, nil, 3, 4])], categories: ["1", "2", "3", "4"])
        #expect(count("class=\"point\"", in: svg) == 3)
        #expect(count("<polyline", in: svg) == 1)  // "1" alone draws no segment; "3"–"4" one
    }

    @Test func accessibleTitleDescriptionAndLegend() {
        let svg = chart(.lines, [.init(name: "Voluntary", values: [1, 2])], categories: ["2026-09", "2026-10"])
        #expect(svg.contains("role=\"img\" aria-labelledby=\"chart-t-title chart-t-desc\""))
        #expect(svg.contains("<title id=\"chart-t-title\">Title &lt;b&gt;</title>"))
        #expect(
            svg.contains(
                "<desc id=\"chart-t-desc\">Line chart of Things from 2026-09 to 2026-10. Voluntary: 2026-09 1, 2026-10 2.</desc>"
            ))
        #expect(svg.contains(">Voluntary</text>"))
        #expect(svg.contains(">Things</text>"))
    }

    /// A few long labels are slanted, never thinned: each column keeps its name (the billing-outcomes chart once
    /// lost "pending" and "recovered after grace" to a thinning meant for months).
    @Test func everyColumnOfAFewKeepsItsLabel() {
        let categories = ["recovered in grace", "recovered after grace", "expired", "pending"]
        let svg = chart(.groupedColumns, [.init(name: "Episodes", values: [0, 0, 0, 1])], categories: categories)
        for label in ["recovered in grace", "recovered after grace", "expired", "pending"] {
            #expect(svg.contains(">\(label)</text>"), "\(label) is not drawn under its column")
        }
    }

    @Test func hostileLabelsAreText() {
        let svg = chart(
            .groupedColumns, [.init(name: "<script>", values: [1])], categories: ["\"/><script>alert(1)</script>"])
        #expect(!svg.contains("<script"))
        #expect(svg.contains("&quot;/&gt;&lt;script&gt;"))
    }

    @Test func seriesStayApartWithoutColour() {
        let svg = chart(
            .groupedColumns,
            [.init(name: "a", values: [1]), .init(name: "b", values: [2]), .init(name: "c", values: [3])],
            categories: ["x"])
        // The second and third series are striped at different angles (print, colour-blind readers).
        #expect(svg.contains("<pattern id=\"chart-t-pattern-1\""))
        #expect(svg.contains("patternTransform=\"rotate(45)\""))
        #expect(svg.contains("patternTransform=\"rotate(-45)\""))
        let lines = chart(
            .lines, [.init(name: "a", values: [1, 2]), .init(name: "b", values: [2, 1])], categories: ["x", "y"])
        #expect(lines.contains("stroke-dasharray=\"7 4\""))
        #expect(lines.contains("<polygon") == false)
        #expect(lines.contains("<rect class=\"point\""))  // squares for the second series
    }

    @Test func axisTicksAreRoundNumbersCoveringEveryValue() {
        let scale = AxisScale(values: [0, 23], minimumStep: 1)
        #expect(scale.ticks == [0, 5, 10, 15, 20, 25])
        let money = AxisScale(values: [999_000, -300_000], minimumStep: 10)
        #expect(money.low <= -300_000 && money.high >= 999_000)
        #expect(money.ticks.allSatisfy { $0 % money.step == 0 })
        #expect(AxisScale(values: [], minimumStep: 1).ticks == [0, 1])
        // Extremes neither trap nor loop.
        let extreme = AxisScale(values: [Int64.max, Int64.min], minimumStep: 1)
        #expect(extreme.ticks.count <= 20)
        #expect(AxisScale(values: [3], minimumStep: 1000).ticks == [0, 1000])
    }

    @Test func timelineHasOnePointPerEvent() {
        let day: Int64 = 86_400_000
        let start = Fixtures.october1
        let spec = ChartSpec(
            name: "timeline", title: "Timeline", caption: "",
            body: .timeline(
                .init(
                    lanes: ["purchase", "refund"],
                    events: [
                        .init(time: start, lane: 0, label: "t1"), .init(time: start + day, lane: 1, label: "t1"),
                        .init(time: start + 90 * day, lane: 0, label: "<t2>"),
                    ],
                    start: start - day, end: start + 91 * day)))
        let svg = SVGChart.render(spec)
        #expect(count("class=\"point\"", in: svg) == 3)
        #expect(svg.contains(">2026-11</text>"))
        #expect(svg.contains("&lt;t2&gt;"))
        #expect(svg == SVGChart.render(spec))
    }
}
