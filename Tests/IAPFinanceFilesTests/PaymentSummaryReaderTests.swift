import Foundation
import IAPFormats
import IAPTestSupport
import Testing

@testable import IAPFinanceFiles

/// Apple's payment summary (Documentation/Inputs.md "Apple's payment summary"), read whole or refused whole.
@Suite struct PaymentSummaryReaderTests {
    static let example = """
        "App Store Connect - Payments and Financial Reports (March 2026)",,,,,,,,,,
        ,,,,,,,,,,
        "Region (Currency)","Units Sold","Earned","Pre-Tax Subtotal","Input Tax","Adjustments","Withholding Tax","Total Owed","Exchange Rate","Proceeds","Bank Account Currency"
        "Americas (USD)","1,204","4,812.37","4,812.37","0.00","0.00","0.00","4,812.37","1.00000","4,812.37","USD"
        "Euro-Zone (EUR)","388","1,401.08","1,401.08","0.00","-3.50","0.00","1,397.58","1.08231","1,512.62","USD"
        "Japan (JPY)","97","40,360","40,360","0","0","-4,036","36,324","0.006712","243.81","USD"
        ,,,,,,,,,,
        "United Kingdom (GBP)","3","8.35","8.35","0.00","0.00","0.00","8.35",,,"USD"

        """

    private func read(_ text: String, gzip: Bool = false, bytes: [UInt8]? = nil) throws -> PaymentSummary {
        let folder = NSTemporaryDirectory() + "iaplens-payments-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/financial_report.csv"
        var data = bytes ?? Array(text.utf8)
        if gzip { data = Gzip.compress(data)! }
        try Data(data).write(to: URL(fileURLWithPath: path))
        let file = InputFile(path: path, byteCount: Int64(data.count))
        return try PaymentSummaryReader(file: file).read()
    }

    @Test func theContractsExampleReadsExactly() throws {
        let summary = try read(Self.example)
        #expect(summary.fiscalMonth.text == "2026-03" && !summary.isPending)
        #expect(summary.rows.map(\.region) == ["Americas", "Euro-Zone", "Japan", "United Kingdom"])
        #expect(summary.rows.map(\.section) == [.paid, .paid, .paid, .held])
        let euro = summary.rows[1]
        #expect(euro.unitsSold == 388 && euro.earnedMilli == 1_401_080 && euro.adjustmentsMilli == -3_500)
        #expect(euro.totalOwedMilli == 1_397_580 && euro.exchangeRate == "1.08231" && euro.proceedsMilli == 1_512_620)
        let japan = summary.rows[2]
        #expect(
            japan.earnedMilli == 40_360_000 && japan.withholdingTaxMilli == -4_036_000
                && japan.exchangeRate == "0.006712")
        #expect(summary.rows[0].unitsSold == 1_204)
        let held = summary.rows[3]
        #expect(held.exchangeRate == nil && held.proceedsMilli == nil && held.bankCurrency == "USD")
        #expect(try read(Self.example, gzip: true) == summary)
    }

    @Test func aPendingSummaryHasNoRateAndABalanceIsKept() throws {
        let pending = """
            "iTunes Connect - Payments and Financial Reports (April 2026)",,,,,
            "Region (Currency)","Units Sold","Beginning Balance","Earned","Total Owed","Bank Account Currency"
            "United Kingdom (GBP)","4","8.35","11.10","19.45","USD"
            """
        let summary = try read(pending)
        #expect(summary.isPending && summary.fiscalMonth.text == "2026-04")
        #expect(summary.rows.first?.beginningBalanceMilli == 8_350 && summary.rows.first?.inputTaxMilli == 0)
        #expect(summary.rows.first?.section == .paid && summary.rows.first?.exchangeRate == nil)
    }

    @Test func aPendingSummaryMayNameTheRateAndProceedsAndLeaveThemEmpty() throws {
        // Before: "Exchange Rate "" is not a positive decimal", the whole pending month refused.
        let pending = """
            "App Store Connect - Payments and Financial Reports (April 2026)",,,,,,,
            ,,,,,,,
            "Region (Currency)","Units Sold","Earned","Total Owed","Exchange Rate","Proceeds","Bank Account Currency"
            "Americas (USD)","12","50.00","50.00",,,"USD"
            "Euro-Zone (EUR)","4","11.10","11.10","","","USD"
            ,,,,,,
            "United Kingdom (GBP)","1","3.00","3.00",,,"USD"
            """
        let summary = try read(pending)
        #expect(summary.isPending && summary.rows.count == 3 && summary.rows.allSatisfy { $0.exchangeRate == nil })
        // Every region held: a paid month that pays nothing, not a pending one.
        let header = "\"Bank Account Currency\"\n"
        let allHeld = pending.replacingOccurrences(of: header, with: header + ",,,,,,\n")
        let held = try read(allHeld)
        #expect(!held.isPending && held.rows.allSatisfy { $0.section == .held })
        // One paid region with its rate and another without: neither paid nor pending, refused on the row.
        let mixed = pending.replacingOccurrences(of: "\"50.00\",,,", with: "\"50.00\",\"1.00000\",\"50.00\",")
        let error = try #require(throws: PaymentSummaryError.self) { try read(mixed) }
        #expect(error.line == 5 && error.reason.contains("Exchange Rate"))
    }

    @Test(arguments: [
        ("a thousands group of two digits", "\"1,99\"", "Units Sold"),
        ("an empty thousands group", "\"1,,9,9\"", "Units Sold"),
        ("a float count", "1.5", "Units Sold"),
    ])
    func aBadCountRefusesTheFileNamingTheLine(what: String, cell: String, column: String) throws {
        let text = Self.example.replacingOccurrences(of: "\"388\"", with: cell)
        #expect(text != Self.example)
        let error = try #require(throws: PaymentSummaryError.self) { try read(text) }
        #expect(error.line == 5 && error.reason.contains(column), "\(what): \(error)")
    }

    @Test func aBadAmountARegionTwiceAndAHeldRowWithARateAreRefused() throws {
        let amount = Self.example.replacingOccurrences(
            of: "\"1,401.08\",\"1,401.08\"", with: "\"1,40,1.08\",\"1,401.08\"")
        #expect(try #require(throws: PaymentSummaryError.self) { try read(amount) }.reason.contains("Earned"))
        let twice = Self.example.replacingOccurrences(of: "Japan (JPY)", with: "Euro-Zone (EUR)")
        #expect(try #require(throws: PaymentSummaryError.self) { try read(twice) }.reason.contains("twice"))
        let heldRate = Self.example.replacingOccurrences(
            of: "\"8.35\",,,\"USD\"", with: "\"8.35\",\"1.26\",\"10.55\",\"USD\"")
        #expect(try #require(throws: PaymentSummaryError.self) { try read(heldRate) }.reason.contains("held"))
        let region = Self.example.replacingOccurrences(of: "Japan (JPY)", with: "Japan")
        #expect(try #require(throws: PaymentSummaryError.self) { try read(region) }.line == 6)
        let title = Self.example.replacingOccurrences(of: "(March 2026)", with: "(Marchember 2026)")
        #expect(try #require(throws: PaymentSummaryError.self) { try read(title) }.line == 1)
    }

    /// A summary has a line per region (about fifty): a file of thousands of lines is something else named like one,
    /// refused at the bound before it is read further.
    @Test func aFileLongerThanAnySummaryIsRefusedAtItsBound() throws {
        let filler = String(repeating: ",,,,,,,,,,\n", count: PaymentSummaryReader.maxLines)
        let error = try #require(throws: PaymentSummaryError.self) { try read(Self.example + filler) }
        #expect(error.reason.contains("over \(PaymentSummaryReader.maxLines) lines"), "\(error.reason)")
    }

    @Test func aTruncatedGzipIsRefusedWhole() throws {
        let whole = Gzip.compress(Array(Self.example.utf8))!
        #expect(throws: PaymentSummaryError.self) { try read("", bytes: Array(whole.prefix(whole.count - 12))) }
    }

    @Test func aUTF16SummaryIsRecognisedAndRefusedByName() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in Self.example.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let folder = NSTemporaryDirectory() + "iaplens-payments-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/financial_report.csv"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = PaymentSummaryReader(file: InputFile(path: path, byteCount: Int64(bytes.count)))
        guard case .unusable(let reason) = reader.recognize() else {
            Issue.record("a UTF-16 summary must be recognised and refused")
            return
        }
        #expect(reason.contains("UTF-16"))
    }

    /// A summary whose title lost its month, or that lost its title line, is still recognised as one, and refused
    /// with that reason: passed over, it would only have counted among the files that are no Apple file at all.
    @Test(arguments: [
        ("a title without its month", "(March 2026)", "", "does not end in the fiscal month"),
        (
            "no title line",
            "\"App Store Connect - Payments and Financial Reports (March 2026)\",,,,,,,,,,\n,,,,,,,,,,\n", "",
            "without the title line"
        ),
        (
            "no title line, a byte-order mark",
            "\"App Store Connect - Payments and Financial Reports (March 2026)\",,,,,,,,,,\n,,,,,,,,,,\n", "\u{FEFF}",
            "without the title line"
        ),
    ])
    func aSummaryMissingItsMonthIsRecognisedAndRefusedSayingSo(what: String, remove: String, by: String, reason: String)
        throws
    {
        let text = Self.example.replacingOccurrences(of: remove, with: by)
        let folder = NSTemporaryDirectory() + "iaplens-payments-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/financial_report.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let reader = PaymentSummaryReader(file: InputFile(path: path, byteCount: Int64(text.utf8.count)))
        #expect(reader.recognize() == .summary, "\(what)")
        #expect(throws: PaymentSummaryError.self, "\(what)") { try reader.read() }
        do { _ = try reader.read() } catch { #expect(error.description.contains(reason), "\(what): \(error)") }
    }

    @Test func aFileThatCannotBeParsedIsRefusedInOneSentence() throws {
        let text = Self.example.replacingOccurrences(of: "\"Japan (JPY)\"", with: "\"Japan \"(JPY)\"")
        do {
            _ = try read(text)
            Issue.record("a stray quote must refuse the file")
        } catch let error as PaymentSummaryError {
            #expect(error.line == 6)
            #expect(error.description.contains("doubled. Nothing of it was loaded"), "\(error)")
        }
    }

    @Test func aSummaryInAnotherEncodingIsRefusedNamingTheLine() throws {
        var bytes = Array(Self.example.utf8)
        let euro = Array("Euro-Zone".utf8)
        let at = try #require((0...(bytes.count - euro.count)).first { Array(bytes[$0..<$0 + euro.count]) == euro })
        bytes.insert(0xE9, at: at + euro.count)  // "Euro-Zoneé" in Latin-1, line 5
        do {
            _ = try read("", bytes: bytes)
            Issue.record("a Latin-1 summary must be refused")
        } catch let error as PaymentSummaryError {
            #expect(error.line == 5 && error.reason.contains("not UTF-8 text (byte 0xE9"), "\(error)")
        }
    }

    @Test func aFileThatIsNotASummaryIsLeftAlone() throws {
        let folder = NSTemporaryDirectory() + "iaplens-payments-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/products.csv"
        try "product_id,type,currency,price_milli\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(PaymentSummaryReader(file: InputFile(path: path, byteCount: 37)).recognize() == .notASummary)
    }
}
