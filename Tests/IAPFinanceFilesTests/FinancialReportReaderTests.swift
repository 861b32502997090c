import Foundation
import IAPTestSupport
import Testing

@testable import IAPFinanceFiles
@testable import IAPFormats

/// A FINANCE_DETAIL report as Apple writes it (the columns of Documentation/Inputs.md), built by the tests.
enum FinanceFixture {
    static let header = [
        "Transaction Date", "Settlement Date", "Apple Identifier", "SKU", "Title", "Developer Name",
        "Product Type Identifier", "Country of Sale", "Quantity", "Partner Share", "Extended Partner Share",
        "Partner Share Currency", "Customer Price", "Customer Currency", "Sale or Return", "Promo Code", "Order Type",
        "Region",
    ]

    static func row(
        _ date: String, sku: String = "com.app.coins", country: String = "US", quantity: String = "1",
        share: String = "0.69",
        extended: String? = nil, currency: String = "USD", price: String = "0.99", kind: String = "S"
    ) -> String {
        [
            date, date, "6447100021", sku, "Coins", "Dev", "IA1", country, quantity, share, extended ?? share, currency,
            price,
            currency, kind, "", "", "Americas",
        ].joined(separator: "\t")
    }

    static func report(start: String? = "03/01/2026", end: String? = "03/28/2026", rows: [String], summary: Bool = true)
        -> String
    {
        var lines = ["Vendor Name\tHoldout Games Ltd"]
        if let start { lines.append("Start Date\t\(start)") }
        if let end { lines.append("End Date\t\(end)") }
        if start == nil && end == nil { lines = [] }
        lines.append(header.joined(separator: "\t"))
        lines += rows
        if summary {
            lines += [
                "Country Of Sale\tPartner Share Currency\tQuantity\tExtended Partner Share", "US\tUSD\t58\t125.42",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

@Suite struct FinancialReportReaderTests {
    private func read(_ file: InputFile) throws -> (
        items: [FinancialReportReader.Item], summary: FinancialReportReader.Summary
    ) {
        var items: [FinancialReportReader.Item] = []
        let summary = try FinancialReportReader(file: file).read { items.append($0) }
        return (items, summary)
    }

    private func rows(_ items: [FinancialReportReader.Item]) -> [FinancialReportRow] {
        items.compactMap { if case .row(let row) = $0 { row } else { nil } }
    }

    @Test func readsRowsExactlyAndKeepsOtherColumns() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "FINANCE_DETAIL.txt",
            FinanceFixture.report(rows: [
                FinanceFixture.row("03/01/2026", quantity: "35", share: "0.69", extended: "24.15"),
                FinanceFixture.row(
                    "03/02/2026", sku: "com.app.gems", country: "JP", quantity: "1", share: "102", currency: "JPY",
                    price: "160"),
                FinanceFixture.row(
                    "03/03/2026", quantity: "-1", share: "6.99", extended: "-6.99", price: "9.99", kind: "R"),
            ]))
        #expect(FinancialReportReader(file: file).recognize() == .report)
        let (items, summary) = try read(file)
        let read = rows(items)
        #expect(read.count == 3)
        #expect(
            read[0].line == 5 && read[0].quantity == 35 && read[0].partnerShareMilli == 690
                && read[0].extendedPartnerShareMilli == 24_150)
        #expect(
            read[0].customerPriceMilli == 990 && read[0].saleOrReturn == "S"
                && read[0].transactionDate.isoText == "2026-03-01")
        #expect(read[1].customerPriceMilli == 160_000 && read[1].customerCurrency == "JPY")
        #expect(read[2].quantity == -1 && read[2].extendedPartnerShareMilli == -6_990 && read[2].saleOrReturn == "R")
        #expect(
            read[0].otherColumns.map(\.name) == [
                "Apple Identifier", "Title", "Developer Name", "Promo Code", "Order Type", "Region",
            ])
        #expect(summary.vendorName == "Holdout Games Ltd")
        #expect(summary.period.map { "\($0.lowerBound.isoText)…\($0.upperBound.isoText)" } == "2026-03-01…2026-03-28")
        #expect(summary.rows == 3 && summary.rejected == 0)  // the trailing per-country block is not a row
    }

    @Test func withoutAPreambleThePeriodIsTheRowsFirstToLastDay() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "r.tsv",
            FinanceFixture.report(
                start: nil, end: nil,
                rows: [
                    FinanceFixture.row("03/05/2026"), FinanceFixture.row("03/02/2026"),
                    FinanceFixture.row("03/09/2026"),
                ], summary: false))
        let (_, summary) = try read(file)
        #expect(summary.statedPeriod == nil)
        #expect(summary.period.map { "\($0.lowerBound.isoText)…\($0.upperBound.isoText)" } == "2026-03-02…2026-03-09")
    }

    @Test func gzipBOMAndCRLFReadTheSame() throws {
        let folder = try TemporaryFolder()
        let text = FinanceFixture.report(rows: [FinanceFixture.row("03/01/2026"), FinanceFixture.row("03/02/2026")])
        let plain = try read(try folder.write("plain.txt", text)).items
        let crlf = "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n")
        let gzipped = try read(try folder.write("report.txt.gz", try gzip(crlf))).items
        #expect(rows(plain) == rows(gzipped))
        #expect(rows(plain).count == 2)
    }

    /// A report saved in Latin-1 (a spreadsheet's "CSV (Windows)") is refused naming the line, not read with its
    /// accented letters replaced.
    @Test func aReportInAnotherEncodingIsRefusedNamingTheLine() throws {
        let folder = try TemporaryFolder()
        var bytes = Array(
            FinanceFixture.report(rows: [FinanceFixture.row("03/01/2026"), FinanceFixture.row("03/02/2026")]).utf8)
        let americas = Array("Americas".utf8)
        let last = try #require(
            (0...(bytes.count - americas.count)).last { Array(bytes[$0..<$0 + americas.count]) == americas })
        bytes.replaceSubrange(last..<last + 1, with: [0xC1])  // "Ámericas" in Latin-1, on the second row (line 6)
        let file = try folder.write("latin1.txt", bytes)
        #expect(throws: FinancialReportError.self) { try read(file) }
        do { _ = try read(file) } catch {
            #expect("\(error)".contains("line 6: it is not UTF-8 text (byte 0xC1"), "\(error)")
        }
    }

    @Test func badRowsAreRejectedWithASentenceAndTheRestRead() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "bad.txt",
            FinanceFixture.report(rows: [
                FinanceFixture.row("03/01/2026", quantity: "1.5"),
                FinanceFixture.row("03/01/2026", extended: "1000000000000000000000000000000"),
                FinanceFixture.row("02/30/2026"),
                FinanceFixture.row("03/01/2026", price: "6.9999"),
                FinanceFixture.row("03/01/2026", kind: "X"),
                FinanceFixture.row("03/01/2026", currency: "usd"),
                "03/01/2026\ttoo few cells",
                FinanceFixture.row("03/01/2026", sku: "<script>alert(1)</script>"),
            ]))
        let (items, summary) = try read(file)
        let rejected = items.compactMap { item -> String? in
            if case .rejected(_, let message, _) = item { message } else { nil }
        }
        #expect(rejected.count == 7)
        #expect(rejected[0].contains("Quantity") && rejected[0].contains("whole numbers"))
        #expect(rejected[1].contains("Extended Partner Share") && rejected[1].contains("outside"))
        #expect(rejected[2].contains("Transaction Date"))
        #expect(rejected[3].contains("three decimals"))
        #expect(rejected[4].contains("S or R"))
        #expect(rejected[5].contains("ISO 4217"))
        #expect(rejected[6].contains("cells"))
        // Markup is data: kept exactly, escaped by whoever shows it.
        #expect(rows(items).map(\.sku) == ["<script>alert(1)</script>"])
        #expect(summary.rows == 1 && summary.rejected == 7)
    }

    @Test func anOverlongLineIsRejectedWithoutStoppingTheFile() throws {
        let folder = try TemporaryFolder()
        let long = String(repeating: "x", count: 2_000)
        let file = try folder.write("long.txt", FinanceFixture.report(rows: [long, FinanceFixture.row("03/02/2026")]))
        var items: [FinancialReportReader.Item] = []
        let summary = try FinancialReportReader(file: file, maxLineBytes: 1_000).read { items.append($0) }
        #expect(summary.rows == 1 && summary.rejected == 1)
    }

    /// A required column named twice (a spreadsheet's edit, two files pasted side by side): whichever were read, the
    /// other might be the report's, so the file is refused naming the column.
    @Test func aReportNamingARequiredColumnTwiceIsRefusedNamingIt() throws {
        let folder = try TemporaryFolder()
        let text = FinanceFixture.report(rows: [FinanceFixture.row("03/01/2026") + "\t2"], summary: false)
            .replacingOccurrences(of: "\tRegion\n", with: "\tRegion\tQuantity\n")
        let file = try folder.write("twice.txt", text)
        guard case .unusableReport(let reason) = FinancialReportReader(file: file).recognize() else {
            Issue.record("a report naming Quantity twice must be recognised and refused")
            return
        }
        #expect(reason.contains("names Quantity twice"), "\(reason)")
        #expect(throws: FinancialReportError.self) { try FinancialReportReader(file: file).read { _ in } }
    }

    @Test func aReportMissingAColumnIsRefusedNamingIt() throws {
        let folder = try TemporaryFolder()
        let text = FinanceFixture.report(rows: [FinanceFixture.row("03/01/2026")])
            .replacingOccurrences(of: "Extended Partner Share", with: "Ext Share")
        let file = try folder.write("renamed.txt", text)
        guard case .unusableReport(let reason) = FinancialReportReader(file: file).recognize() else {
            Issue.record("a report with a renamed column must be recognised and refused")
            return
        }
        #expect(reason.contains("Extended Partner Share"))
        #expect(throws: FinancialReportError.self) { try FinancialReportReader(file: file).read { _ in } }
    }

    @Test func otherFilesAreNotMistakenForReports() throws {
        let folder = try TemporaryFolder()
        for (name, text) in [
            ("products.csv", "product_id,type,currency,price_milli\ncom.app,consumable,USD,990\n"),
            ("notes.txt", "Transaction Date is when it happened\nnothing else\n"),
            ("other.tsv", "Date\tSKU\tUnits\n03/01/2026\tx\t1\n"),
            ("empty.txt", ""),
        ] {
            #expect(FinancialReportReader(file: try folder.write(name, text)).recognize() == .notAReport, "\(name)")
        }
    }

    @Test func amountsAreExactMilliunits() {
        #expect(DecimalAmount.milliunits("6.99", limit: 1_000_000_000_000) == .success(6_990))
        #expect(DecimalAmount.milliunits("-6.99", limit: 1_000_000_000_000) == .success(-6_990))
        #expect(DecimalAmount.milliunits("980", limit: 1_000_000_000_000) == .success(980_000))
        #expect(DecimalAmount.milliunits("1,234.5", limit: 1_000_000_000_000) == .success(1_234_500))
        #expect(DecimalAmount.milliunits("0.1230", limit: 1_000_000_000_000) == .success(123))
        #expect(DecimalAmount.milliunits("0.1234", limit: 1_000_000_000_000) == .failure(.tooPrecise))
        #expect(DecimalAmount.milliunits("1e3", limit: 1_000_000_000_000) == .failure(.notANumber))
        #expect(DecimalAmount.milliunits("", limit: 1_000_000_000_000) == .failure(.notANumber))
        #expect(DecimalAmount.milliunits("99999999999999999999", limit: 1_000_000_000_000) == .failure(.outOfRange))
        #expect(DecimalAmount.milliunits("1000000000", limit: 1_000_000_000_000) == .success(1_000_000_000_000))
        #expect(DecimalAmount.milliunits("1000000000.001", limit: 1_000_000_000_000) == .failure(.outOfRange))
        #expect(DecimalAmount.integer("-12", limit: 100) == .success(-12))
        #expect(DecimalAmount.integer("1.0", limit: 100) == .failure(.tooPrecise))
        #expect(DecimalAmount.integer("101", limit: 100) == .failure(.outOfRange))
    }
}

@Suite struct AppleFiscalMonthTests {
    @Test func monthsFollowTheFiveFourFourCalendar() throws {
        let december = try #require(AppleFiscalMonth(named: "2025-12"))
        #expect(december.firstDay.isoText == "2025-11-30" && december.lastDay.isoText == "2025-12-27")
        let march = try #require(AppleFiscalMonth(named: "2026-03"))
        #expect(march.firstDay.isoText == "2026-03-01" && march.lastDay.isoText == "2026-03-28")
        let october = try #require(AppleFiscalMonth(named: "2025-10"))
        #expect(october.firstDay.isoText == "2025-09-28" && october.lastDay.isoText == "2025-11-01")
        #expect(AppleFiscalMonth(containing: try #require(ReportDay(isoText: "2025-12-28")))?.text == "2026-01")
        #expect(AppleFiscalMonth(containing: try #require(ReportDay(isoText: "2025-09-27")))?.text == "2025-09")
    }

    @Test func monthsTileTheYearsWithoutGapOrOverlap() throws {
        var month = try #require(AppleFiscalMonth(named: "2010-10"))
        var lengths: Set<Int> = []
        while month.text < "2030-10" {
            let next = try #require(month.next)
            #expect(next.firstDay.daysSinceEpoch == month.lastDay.daysSinceEpoch + 1)
            #expect(month.lastDay.weekday == 6, "\(month.text) ends on a Saturday")
            lengths.insert(month.lastDay.daysSinceEpoch - month.firstDay.daysSinceEpoch + 1)
            month = next
        }
        #expect(lengths == [28, 35])  // 4 and 5 weeks
        // Fiscal 2017 had 53 weeks (2016-09-25 … 2017-09-30): its September took the extra week.
        let september = try #require(AppleFiscalMonth(named: "2017-09"))
        #expect(september.firstDay.isoText == "2017-08-27" && september.lastDay.isoText == "2017-09-30")
    }

    @Test func daysConvertBothWays() throws {
        for text in ["2008-01-01", "2024-02-29", "2099-12-31", "2026-03-28"] {
            let day = try #require(ReportDay(isoText: text))
            #expect(ReportDay(daysSinceEpoch: day.daysSinceEpoch) == day)
            #expect(ReportDay(appleText: day.appleText) == day)
        }
        #expect(ReportDay(isoText: "2025-02-29") == nil)
        #expect(ReportDay(appleText: "13/01/2026") == nil)
        #expect(ReportDay(isoText: "2026-03-01")?.weekday == 0)
    }
}
