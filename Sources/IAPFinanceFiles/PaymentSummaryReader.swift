import IAPFormats

/// Reads Apple's payment summary (Documentation/Inputs.md "Apple's payment summary"): the CSV that App Store Connect's
/// Payments and Financial Reports page downloads for one fiscal month. A title line ending in the fiscal month in
/// parentheses, a header row whose first cell is `Region (Currency)`, one row per region; a blank row ends the paid
/// rows and the rows after it are *held* below Apple's payment threshold. A file without `Exchange Rate` and `Proceeds`
/// (the columns left out, or named and empty in every row) is *pending* (Apple has not paid that month yet).
///
/// The file is believed only whole: any line that cannot be read refuses the whole file (``PaymentSummaryError``
/// names the line and the reason), so nothing of a damaged download is ever loaded.
public struct PaymentSummaryReader: Sendable {
    /// The columns a summary must name; the others are optional (`Beginning Balance` only when an earlier month was
    /// carried forward; `Exchange Rate` and `Proceeds` only once Apple paid).
    public static let requiredColumns = ["Region (Currency)", "Units Sold", "Earned", "Total Owed"]
    /// The header row's first cell, lower-cased as cells are compared.
    static let headerFirstCell = requiredColumns[0].lowercased()

    /// Lines looked at for the title before a file is judged not to be a summary.
    static let titleSearchLines = 5
    /// A summary lists a few dozen regions; a file far longer is not one.
    static let maxLines = 5_000
    /// Amounts are bounded so that no sum over every region and year can overflow 64 bits on either engine.
    static let amountLimit: Int64 = 1_000_000_000_000_000  // 10^12 units of a currency, in milliunits
    static let unitLimit: Int64 = 1_000_000_000_000

    public let file: InputFile

    public init(file: InputFile) {
        self.file = file
    }

    /// What the first lines of a file say it is.
    public enum Recognition: Sendable, Equatable {
        case summary
        /// A payment summary by its title, which cannot be loaded: the sentence says why.
        case unusable(String)
        case notASummary
    }

    /// Looks at the first lines only: a title `… Payments and Financial Reports …`, or a header row whose first cell
    /// is `Region (Currency)`. Either makes the file a summary, so that one whose title lost its month, or that lost
    /// its title, is refused with that reason (``read()``) instead of being passed over as no Apple file at all.
    public func recognize() -> Recognition {
        var looked = 0
        for item in DocumentReader(file: file) {
            guard case .document(_, let bytes) = item else { return .notASummary }
            if UTF16Detection.startsWithByteOrderMark(bytes) {
                return Self.utf16Text(bytes).contains("Payments and Financial Reports")
                    ? .unusable(
                        "it is encoded as UTF-16; save it as UTF-8 (as App Store Connect downloads it) and load it again"
                    )
                    : .notASummary
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if text.contains("Payments and Financial Reports") || Self.isHeader(text) { return .summary }
            looked += 1
            if looked >= Self.titleSearchLines { break }
        }
        return .notASummary
    }

    /// Whether a line is the header row: its first cell, quoted or not, is `Region (Currency)`.
    static func isHeader(_ line: String) -> Bool {
        let lower = line.drop { $0 == " " }.lowercased()
        return lower.hasPrefix(headerFirstCell) || lower.hasPrefix("\"" + headerFirstCell + "\"")
    }

    /// Reads the whole file.
    /// - Throws: ``PaymentSummaryError`` naming the line and what is wrong when any of it cannot be read.
    public func read() throws(PaymentSummaryError) -> PaymentSummary {
        var text: [UInt8] = []
        var lastLine = 0
        for item in DocumentReader(file: file) {
            switch item {
            case .failure(let line, let failure):
                throw PaymentSummaryError(file: file.path, line: line, reason: failure.clause)
            case .document(let line, let bytes):
                if UTF16Detection.looksLikeUTF16(bytes) {
                    throw PaymentSummaryError(
                        file: file.path, line: line,
                        reason: "it is not UTF-8 text (UTF-16 or binary); save it as UTF-8 and load it again")
                }
                if let problem = UTF8Validation.problem(bytes) {
                    throw PaymentSummaryError(file: file.path, line: line, reason: problem)
                }
                guard line <= Self.maxLines else {
                    throw PaymentSummaryError(
                        file: file.path, line: line,
                        reason: "it has over \(Self.maxLines) lines, which no payment summary has")
                }
                // Blank lines come back as gaps in the numbering: keep them, they separate the held rows.
                while lastLine < line - 1 {
                    text.append(UInt8(ascii: "\n"))
                    lastLine += 1
                }
                text += bytes
                text.append(UInt8(ascii: "\n"))
                lastLine = line
            }
        }
        let table: CSVTable
        do {
            table = try CSVTable.parse(text, file: file.path, keepSpaces: true)
        } catch {
            let problem = error.problems.first
            // The reason ends the error's first sentence, which adds its own full stop.
            let message = problem.map { $0.message.hasSuffix(".") ? String($0.message.dropLast()) : $0.message }
            throw PaymentSummaryError(
                file: file.path, line: problem?.line ?? 0, reason: message ?? "the CSV cannot be read")
        }
        return try Self.summary(of: table, file: file.path)
    }

    static func summary(of table: CSVTable, file: String) throws(PaymentSummaryError) -> PaymentSummary {
        var records = table.records[...]
        guard let titleRecord = records.first(where: { !ReferenceFiles.isBlank($0) }) else {
            throw PaymentSummaryError(file: file, line: 0, reason: "it is empty")
        }
        let title = Self.trimmed(titleRecord.fields.first ?? "")
        guard title.lowercased() != headerFirstCell else {
            throw PaymentSummaryError(
                file: file, line: titleRecord.line,
                reason: "it starts with the header row, without the title line that names its fiscal month, as "
                    + "\"App Store Connect - Payments and Financial Reports (December 2025)\"")
        }
        guard let month = Self.fiscalMonth(ofTitle: title) else {
            throw PaymentSummaryError(
                file: file, line: titleRecord.line,
                reason:
                    "its title \"\(title.prefix(80))\" does not end in the fiscal month in parentheses, as \"(December 2025)\""
            )
        }
        records = records.drop { $0.line <= titleRecord.line }
        // Blank lines, then the header row.
        records = records.drop { ReferenceFiles.isBlank($0) }
        guard let headerRecord = records.first else {
            throw PaymentSummaryError(
                file: file, line: titleRecord.line, reason: "it has no header row starting with Region (Currency)")
        }
        let header = headerRecord.fields.map { Self.trimmed($0).lowercased() }
        guard header.first == headerFirstCell else {
            throw PaymentSummaryError(
                file: file, line: headerRecord.line,
                reason: "the row after the title does not start with Region (Currency)")
        }
        func column(_ name: String) -> Int? { header.firstIndex(of: name.lowercased()) }
        guard let unitsColumn = column("Units Sold"), let earnedColumn = column("Earned"),
            let totalOwedColumn = column("Total Owed")
        else {
            let missing = Self.requiredColumns.filter { column($0) == nil }
            throw PaymentSummaryError(
                file: file, line: headerRecord.line, reason: "its header lacks \(missing.joined(separator: ", "))")
        }
        var seen: Set<String> = []
        for (index, name) in header.enumerated() where !name.isEmpty {
            guard seen.insert(name).inserted else {
                throw PaymentSummaryError(
                    file: file, line: headerRecord.line, reason: "its header names \(headerRecord.fields[index]) twice")
            }
        }
        let columns = Columns(
            units: unitsColumn, beginning: column("Beginning Balance"), earned: earnedColumn,
            preTax: column("Pre-Tax Subtotal"), inputTax: column("Input Tax"), adjustments: column("Adjustments"),
            withholding: column("Withholding Tax"), totalOwed: totalOwedColumn, rate: column("Exchange Rate"),
            proceeds: column("Proceeds"), bank: column("Bank Account Currency"))
        guard (columns.rate == nil) == (columns.proceeds == nil) else {
            throw PaymentSummaryError(
                file: file, line: headerRecord.line,
                reason: "its header names one of Exchange Rate and Proceeds but not the other")
        }
        let isPending = Self.isPending(records.dropFirst(), after: headerRecord.line, columns: columns)
        var rows: [PaymentSummaryRow] = []
        var section = PaymentSummaryRow.Section.paid
        var previousLine = headerRecord.line
        var keys: Set<String> = []
        for record in records.dropFirst() {
            // A blank row (or a blank line, which the CSV reader skips) ends the paid rows.
            let afterGap = record.line > previousLine + 1
            previousLine = record.line
            if ReferenceFiles.isBlank(record) || afterGap {
                section = .held
                if ReferenceFiles.isBlank(record) { continue }
            }
            let row = try Self.row(
                record, header: headerRecord.fields, columns: columns, section: section, isPending: isPending,
                file: file)
            guard keys.insert(row.region + "\u{0}" + row.currency).inserted else {
                throw PaymentSummaryError(
                    file: file, line: record.line, reason: "it lists \(row.region) (\(row.currency)) twice")
            }
            rows.append(row)
        }
        guard !rows.isEmpty else {
            throw PaymentSummaryError(file: file, line: headerRecord.line, reason: "it has no region rows")
        }
        return PaymentSummary(title: title, fiscalMonth: month, isPending: isPending, rows: rows)
    }

    /// Whether a summary is *pending*: downloaded before Apple paid the month, its files either lack the `Exchange
    /// Rate` and `Proceeds` columns or name them and leave them empty in every row. A paid summary whose regions are
    /// all held (a blank row straight after the header) is not pending.
    static func isPending(_ rows: ArraySlice<CSVTable.Record>, after headerLine: Int, columns: Columns) -> Bool {
        guard let rate = columns.rate, let proceeds = columns.proceeds else { return true }
        guard let first = rows.first, first.line == headerLine + 1, !ReferenceFiles.isBlank(first) else { return false }
        return rows.allSatisfy { record in
            [rate, proceeds].allSatisfy { index in
                index >= record.fields.count || trimmed(record.fields[index]).isEmpty
            }
        }
    }

    struct Columns {
        let units: Int, beginning: Int?, earned: Int, preTax: Int?, inputTax: Int?, adjustments: Int?, withholding: Int?
        let totalOwed: Int, rate: Int?, proceeds: Int?, bank: Int?

        var known: Set<Int> {
            Set(
                [units, earned, totalOwed]
                    + [beginning, preTax, inputTax, adjustments, withholding, rate, proceeds, bank].compactMap { $0 })
        }
    }

    static func row(
        _ record: CSVTable.Record, header: [String], columns: Columns, section: PaymentSummaryRow.Section,
        isPending: Bool,
        file: String
    ) throws(PaymentSummaryError) -> PaymentSummaryRow {
        func fail(_ reason: String) -> PaymentSummaryError {
            PaymentSummaryError(file: file, line: record.line, reason: reason)
        }
        guard
            record.fields.count <= header.count
                || record.fields.dropFirst(header.count).allSatisfy({ Self.trimmed($0).isEmpty })
        else {
            throw fail("it has \(record.fields.count) cells where the header names \(header.count)")
        }
        func cell(_ index: Int?) -> String {
            guard let index, index < record.fields.count else { return "" }
            return Self.trimmed(record.fields[index])
        }
        let regionCell = cell(0)
        guard let (region, currency) = Self.region(regionCell) else {
            throw fail(
                "its first cell \"\(regionCell.prefix(60))\" is not a region and its currency, as \"Euro-Zone (EUR)\"")
        }
        func amount(_ index: Int?, _ name: String) throws(PaymentSummaryError) -> Int64? {
            let text = cell(index)
            if text.isEmpty { return nil }
            switch DecimalAmount.milliunits(text, limit: Self.amountLimit) {
            case .success(let value): return value
            case .failure(let problem):
                throw fail("\(name) \"\(text.prefix(40))\" is not an amount (\(problem.clause))")
            }
        }
        func requiredAmount(_ index: Int?, _ name: String) throws(PaymentSummaryError) -> Int64 {
            guard let value = try amount(index, name) else { throw fail("\(name) is empty") }
            return value
        }
        let unitsText = cell(columns.units)
        let units: Int64
        switch DecimalAmount.groupedInteger(unitsText, limit: Self.unitLimit) {
        case .success(let value) where value >= 0: units = value
        case .success: throw fail("Units Sold \(unitsText) is negative")
        case .failure(let problem):
            throw fail("Units Sold \"\(unitsText.prefix(40))\" is not a count (\(problem.clause))")
        }
        var rate: String?
        var proceeds: Int64?
        let paidRow = section == .paid && !isPending
        if paidRow {
            let rateText = String(cell(columns.rate).filter { $0 != "," })
            guard case .success(let value) = DecimalAmount.decimal(rateText), value > 0 else {
                throw fail("Exchange Rate \"\(cell(columns.rate).prefix(40))\" is not a positive decimal")
            }
            rate = rateText
            proceeds = try requiredAmount(columns.proceeds, "Proceeds")
        } else if !cell(columns.rate).isEmpty || !cell(columns.proceeds).isEmpty {
            throw fail("a \(isPending ? "pending" : "held") row has an Exchange Rate or Proceeds")
        }
        var others: [(name: String, value: String)] = []
        let known = columns.known.union([0])
        for (index, name) in header.enumerated() where !known.contains(index) && !Self.trimmed(name).isEmpty {
            let value = index < record.fields.count ? record.fields[index] : ""
            if !value.isEmpty { others.append((Self.trimmed(name), value)) }
        }
        return PaymentSummaryRow(
            line: record.line, section: section, region: region, currency: currency, unitsSold: units,
            beginningBalanceMilli: try amount(columns.beginning, "Beginning Balance") ?? 0,
            earnedMilli: try requiredAmount(columns.earned, "Earned"),
            preTaxSubtotalMilli: try amount(columns.preTax, "Pre-Tax Subtotal"),
            inputTaxMilli: try amount(columns.inputTax, "Input Tax") ?? 0,
            adjustmentsMilli: try amount(columns.adjustments, "Adjustments") ?? 0,
            withholdingTaxMilli: try amount(columns.withholding, "Withholding Tax") ?? 0,
            totalOwedMilli: try requiredAmount(columns.totalOwed, "Total Owed"), exchangeRate: rate,
            proceedsMilli: proceeds, bankCurrency: cell(columns.bank).isEmpty ? nil : cell(columns.bank),
            otherColumns: others)
    }

    /// `Euro-Zone (EUR)` → (`Euro-Zone`, `EUR`).
    static func region(_ text: String) -> (String, String)? {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return nil }
        let code = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        let name = Self.trimmed(String(text[..<open]))
        guard !name.isEmpty, code.utf8.count == 3,
            code.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
        else {
            return nil
        }
        return (name, code)
    }

    static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    /// `App Store Connect - Payments and Financial Reports (December 2025)` → `2025-12`.
    static func fiscalMonth(ofTitle title: String) -> CalendarMonth? {
        guard title.contains("Payments and Financial Reports"), title.hasSuffix(")"),
            let open = title.lastIndex(of: "(")
        else {
            return nil
        }
        let words = title[title.index(after: open)..<title.index(before: title.endIndex)].split(separator: " ")
        guard words.count == 2, let month = monthNames.firstIndex(of: words[0].lowercased()), let year = Int(words[1]),
            (2008...2099).contains(year)
        else { return nil }
        return CalendarMonth("\(year)-\(month < 9 ? "0" : "")\(month + 1)")
    }

    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\u{FEFF}" || first == "\t" {
            scalars = scalars.dropFirst()
        }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }

    /// The ASCII characters of UTF-16 text (enough to recognise a title).
    static func utf16Text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.filter { $0 != 0 && $0 < 0x80 }, as: UTF8.self)
    }
}

/// A file that looks like Apple's payment summary but cannot be loaded whole.
public struct PaymentSummaryError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let reason: String

    public init(file: String, line: Int, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String {
        "The payment summary \(file) cannot be loaded\(line > 0 ? " (line \(line))" : ""): \(reason). Nothing of it was loaded; download it again from App Store Connect (Payments and Financial Reports)."
    }
}
