import IAPAnalytics
import Testing

@testable import IAPReports

@Suite struct CSVFormatterTests {
    private func text(_ table: ReportTable) -> String {
        String(decoding: CSVFormatter.render(table), as: UTF8.self)
    }

    private func field(_ value: ReportValue) -> String {
        String(decoding: CSVFormatter.field(value), as: UTF8.self)
    }

    @Test func smallTableIsByteExact() {
        // Given a table with plain, quoted, guarded, negative and empty cells
        let table = ReportTable(
            name: "t.csv", columns: ["month", "product_id", "note", "amount_milli"],
            rows: [
                [.text("2026-10"), .text("com.a,b"), .text("say \"hi\""), .integer(-5)],
                [.text("2026-10"), .text("=SUM(A1)"), .empty, .integer(1_234)],
            ])
        // When it is rendered
        let bytes = CSVFormatter.render(table)
        // Then every byte is as the contract says
        let expected =
            "month,product_id,note,amount_milli\n"
            + "2026-10,\"com.a,b\",\"say \"\"hi\"\"\",-5\n"
            + "2026-10,'=SUM(A1),,1234\n"
        #expect(bytes == Array(expected.utf8))
    }

    @Test func quotesOnlyWhenNeeded() {
        #expect(field(.text("plain text")) == "plain text")
        #expect(field(.text("a,b")) == "\"a,b\"")
        #expect(field(.text("a\"b")) == "\"a\"\"b\"")
        #expect(field(.text("line\nbreak")) == "\"line\nbreak\"")
        #expect(field(.text("carriage\rreturn")) == "\"carriage\rreturn\"")
        #expect(field(.text("tab\tinside")) == "tab\tinside")
        #expect(field(.text("ünïcödé")) == "ünïcödé")
    }

    @Test(arguments: [
        ("=1+1", "'=1+1"),
        ("+44 20", "'+44 20"),
        ("-5", "'-5"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "\"'\rcmd\""),
        ("=HYPERLINK(\"x\",\"y\")", "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\""),
    ])
    func formulaGuard(input: String, expected: String) {
        #expect(field(.text(input)) == expected)
    }

    @Test func integersAreNeverGuarded() {
        #expect(field(.integer(-5)) == "-5")
        #expect(field(.integer(0)) == "0")
        #expect(field(.integer(Int64.min)) == "-9223372036854775808")
    }

    @Test func guardOnlyLooksAtTheFirstCharacter() {
        #expect(field(.text("a=b")) == "a=b")
        #expect(field(.text("2026-10-03T12:00:00Z")) == "2026-10-03T12:00:00Z")
    }

    @Test func emptyCellIsAnEmptyField() {
        let table = ReportTable(name: "t.csv", columns: ["a", "b", "c"], rows: [[.empty, .empty, .empty]])
        #expect(text(table) == "a,b,c\n,,\n")
        #expect(field(.text("")) == "")
    }

    @Test func tableWithoutRowsIsTheHeaderOnly() {
        let table = ReportTable(name: "churn.csv", columns: ReportColumns.churn)
        #expect(text(table) == "month,product_id,churn_type,reason,subscriptions\n")
    }

    @Test func rowsKeepTheirOrder() {
        // Analytics sorted by key values before the guard; the formatter must not re-sort.
        let table = ReportTable(
            name: "t.csv", columns: ["k"], rows: [[.text("-b")], [.text("a")], [.text("=c")]])
        #expect(text(table) == "k\n'-b\na\n'=c\n")
    }
}
