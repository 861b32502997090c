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
        let block = try #require(MermaidChart.block(spec))
        #expect(block.contains("    x-axis [\"a b\", \"c\"]\n    y-axis \"n\"\n    bar [4, 2]\n    bar [1, 2]\n```"))
        #expect(block.contains("plotColorPalette: \"#D55E00, #0072B2\""))
    }

    @Test func timelinesHaveNoMermaidBlock() {
        let spec = ChartSpec(
            name: "t", title: "T", caption: "", body: .timeline(.init(lanes: ["a"], events: [], start: 0, end: 1)))
        #expect(MermaidChart.block(spec) == nil)
    }
}
