import Foundation
import IAPTestSupport
import Testing

@testable import IAPFinanceFiles

/// The ways a Financial Report is refused whole that depend on the file as a whole rather than on one row: its
/// stated period, the days of its rows when it states none, where its header is, and what its amounts add up to
/// (Documentation/Inputs.md, "Apple's financial reports"). Each refusal names its reason; nothing is read past it.
@Suite struct FinancialReportRefusalTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let reason: String
        var maxLineBytes = 1_000
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "an End Date before the Start Date",
            text: FinanceFixture.report(
                start: "03/28/2026", end: "03/01/2026", rows: [FinanceFixture.row("03/02/2026")]),
            reason: "is before its Start Date"),
        Case(
            name: "rows of two fiscal months and no stated period",
            text: FinanceFixture.report(
                start: nil, end: nil, rows: [FinanceFixture.row("03/05/2026"), FinanceFixture.row("04/20/2026")],
                summary: false),
            reason: "which is not within one of Apple's fiscal months"),
        Case(
            name: "a header below the lines where one is looked for",
            text: (0..<FinancialReportReader.headerSearchLines).map { "note \($0)\n" }.joined()
                + FinanceFixture.report(rows: [FinanceFixture.row("03/02/2026")]),
            reason: "in its first lines"),
        Case(
            name: "a preamble and no header",
            text: "Vendor Name\tHoldout Games Ltd\nStart Date\t03/01/2026\nEnd Date\t03/28/2026\n",
            reason: "no header row naming Transaction Date"),
        Case(
            name: "a line too long to read before the header",
            text: String(repeating: "x", count: 2_000) + "\n"
                + FinanceFixture.report(rows: [FinanceFixture.row("03/02/2026")]),
            reason: "line 1: "),
        Case(
            name: "rows each within bounds whose amounts add up past a report's",
            text: FinanceFixture.report(
                rows: [
                    FinanceFixture.row(
                        "03/02/2026", quantity: "5000000", share: "70000.00", extended: "350000000000.00",
                        price: "100000.00"),
                    FinanceFixture.row(
                        "03/03/2026", quantity: "5000000", share: "70000.00", extended: "350000000000.00",
                        price: "100000.00"),
                ]),
            reason: "line 6: its amounts add up past what one report can hold"),
    ]

    /// A row whose Customer Price × Quantity is past a row's bound, though every cell is within its own: the row
    /// cannot be read, so neither can the report.
    @Test func aRowWhoseCustomerAmountIsPastARowsBoundIsRejected() throws {
        let folder = try TemporaryFolder()
        let row = FinanceFixture.row(
            "03/02/2026", quantity: "10000000", share: "0.01", extended: "100000.00", price: "1000000000.00")
        let file = try folder.write("report.txt", FinanceFixture.report(rows: [row]))
        var rejected: [String] = []
        _ = try FinancialReportReader(file: file).read { item in
            if case .rejected(_, let message, _) = item { rejected.append(message) }
        }
        #expect(rejected.count == 1 && rejected[0].contains("Customer Price × Quantity is beyond"), "\(rejected)")
    }

    @Test(arguments: cases)
    func theFileIsRefusedSayingWhy(_ test: Case) throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("report.txt", test.text)
        var rows = 0
        do {
            _ = try FinancialReportReader(file: file, maxLineBytes: test.maxLineBytes).read { item in
                if case .row = item { rows += 1 }
            }
            Issue.record("\(test.name): read without a refusal")
        } catch let error as FinancialReportError {
            #expect(error.description.contains(test.reason), "\(error.description)")
        }
        // The first of the two large rows is within every bound; the sum is what refuses the file.
        if test.name.hasPrefix("rows each within bounds") { #expect(rows == 1) }
    }
}
