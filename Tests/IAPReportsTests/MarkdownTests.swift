import Testing

@testable import IAPReports

@Suite struct MarkdownTests {
    @Test func escapesTableBreakers() {
        #expect(Markdown(text: "a|b").source == "a\\|b")
        #expect(Markdown(text: "line\nbreak\r\nend").source == "line break  end")
    }

    @Test func escapesHTMLAndCode() {
        #expect(Markdown(text: "<script>alert(1)</script>").source == "&lt;script&gt;alert(1)&lt;/script&gt;")
        #expect(Markdown(text: "`rm -rf`").source == "&#96;rm -rf&#96;")
        #expect(Markdown(text: "&lt;").source == "&amp;lt;")
    }

    @Test func escapesMarkdownSyntax() {
        #expect(Markdown(text: "# title").source == "\\# title")
        #expect(Markdown(text: "*bold*").source == "\\*bold\\*")
        #expect(Markdown(text: "_em_").source == "\\_em\\_")
        #expect(Markdown(text: "[x](http://evil)").source == "\\[x\\](http://evil)")
        #expect(Markdown(text: "- item").source == "- item")
        #expect(Markdown(lineStart: "- item").source == "\\- item")
        #expect(Markdown(lineStart: "+1").source == "\\+1")
        #expect(Markdown(lineStart: "12. x").source == "12\\. x")
        #expect(Markdown(lineStart: "2026-10").source == "2026-10")
        #expect(Markdown(text: "a\\b").source == "a\\\\b")
    }

    @Test func keepsIDsReadable() {
        #expect(Markdown(text: "com.example.gold_monthly").source == "com.example.gold_monthly")
        #expect(Markdown(text: "2026-10-03T12:00:00Z").source == "2026-10-03T12:00:00Z")
    }

    @Test func neutralisesBidiOverrides() {
        #expect(Markdown(text: "abc\u{202E}def").source == "abc\u{FFFD}def")
    }

    @Test func cutsVeryLongText() {
        let long = String(repeating: "x", count: 500)
        #expect(Markdown(text: long).source == String(repeating: "x", count: 200) + "…")
    }

    @Test func mermaidLabelsAreSanitised() {
        #expect(MermaidChart.label("a\"b:c;d") == "a b c d")
        #expect(MermaidChart.label("x[1]\n(y){z}<w>") == "x 1 y z w")
        #expect(MermaidChart.label("\"\"") == "(blank)")
        #expect(MermaidChart.label("Involuntary (billing), P1M") == "Involuntary billing, P1M")
        #expect(MermaidChart.label(String(repeating: "p", count: 60)).unicodeScalars.count == 40)
    }

    @Test func stackedColumnsBecomeCumulativeBarsInMermaid() throws {
        let spec = ChartSpec(
            name: "x", title: "T", caption: "",
            body: .categorical(
                .init(
                    kind: .stackedColumns, categories: ["a:b", "c"],
                    series: [.init(name: "one", values: [1, 2]), .init(name: "two", values: [3, nil])], unit: .count,
                    axisTitle: "n")))
        let block = try #require(MermaidChart.markdown(spec))
        #expect(block.contains("    x-axis [\"a b\", \"c\"]\n    y-axis \"n\"\n    bar [4, 2]\n    bar [1, 2]\n```"))
        #expect(block.contains("plotColorPalette: \"#D55E00, #0072B2\""))
    }

    /// xychart has no gap: a rate from too small a base (nil) was written as 0.0, a figure the data does not hold. Now
    /// a chart with a gap is one block per series over the categories where it has a value, and a series without any
    /// value is named.
    @Test func aMissingValueIsNeverWrittenAsZeroInMermaid() throws {
        let spec = ChartSpec(
            name: "x", title: "Churn rate", caption: "",
            body: .categorical(
                .init(
                    kind: .lines, categories: ["2025-01", "2025-02", "2025-03"],
                    series: [
                        .init(name: "Voluntary, P1M", values: [nil, 107, 53]),
                        .init(name: "Voluntary, P1Y", values: [nil, nil, nil]),
                        .init(name: "Involuntary, P1M", values: [20, nil, 0]),
                    ],
                    unit: .percentTenths, axisTitle: "Per cent")))
        let text = try #require(MermaidChart.markdown(spec))
        #expect(
            text.split(separator: "```mermaid", omittingEmptySubsequences: false).count == 3,
            "one block per series with a value")
        #expect(
            text.contains(
                "title \"Voluntary, P1M\"\n    x-axis [\"2025-02\", \"2025-03\"]\n    y-axis \"Per cent\"\n    line [10.7, 5.3]"
            ))
        #expect(
            text.contains(
                "title \"Involuntary, P1M\"\n    x-axis [\"2025-01\", \"2025-03\"]\n    y-axis \"Per cent\"\n    line [2.0, 0.0]"
            ))
        #expect(text.contains("plotColorPalette: \"#009E73\""), "the series keeps its colour in the SVG")
        #expect(text.contains("_Without any value: Voluntary, P1Y._"))
        // Without a gap: one block, every series in it.
        let whole = ChartSpec(
            name: "y", title: "T", caption: "",
            body: .categorical(
                .init(
                    kind: .lines, categories: ["a", "b"],
                    series: [.init(name: "one", values: [1, 2]), .init(name: "two", values: [0, 3])],
                    unit: .count, axisTitle: "n")))
        let block = try #require(MermaidChart.markdown(whole))
        #expect(block.hasPrefix("```mermaid") && block.contains("    line [1, 2]\n    line [0, 3]\n```"))
    }

    @Test func timelinesHaveNoMermaidBlock() {
        let spec = ChartSpec(
            name: "t", title: "T", caption: "", body: .timeline(.init(lanes: ["a"], events: [], start: 0, end: 1)))
        #expect(MermaidChart.markdown(spec) == nil)
    }
}
