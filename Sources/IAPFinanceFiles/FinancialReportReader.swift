import IAPFormats

/// Reads Apple's detailed financial report (`FINANCE_DETAIL`, Documentation/Inputs.md "Apple's financial reports"):
/// a tab-separated text file, plain or gzip, with an optional preamble (`Vendor Name`, `Start Date`, `End Date`), a
/// header row, one row per aggregate, and an optional trailing summary block that starts with a `Country Of Sale`
/// row and is ignored. Columns are found by name (any case, any order); columns iaplens does not use are kept.
///
/// Lines are read by ``DocumentReader``, so gzip, a byte-order mark, CRLF line ends and over-long lines behave as
/// for every input, and memory stays flat: rows are handed out one by one.
public struct FinancialReportReader: Sendable {
    /// The columns a financial report must name (Documentation/Reports.md's reconciliation reads all of them).
    public static let requiredColumns = [
        "Transaction Date", "Settlement Date", "SKU", "Product Type Identifier", "Country of Sale", "Quantity",
        "Partner Share", "Extended Partner Share", "Partner Share Currency", "Customer Price", "Customer Currency",
        "Sale or Return",
    ]

    /// Lines looked at for the header row before a file is judged not to be a financial report.
    static let headerSearchLines = 20

    /// What the first lines of a file say it is.
    public enum Recognition: Sendable, Equatable {
        /// A header row naming every required column, at this line.
        case report
        /// A financial report by its preamble or most of its header, which cannot be loaded: the sentence says why.
        case unusableReport(String)
        /// Not a financial report.
        case notAReport
    }

    /// One item of the report, in file order.
    public enum Item: Sendable, Equatable {
        case row(FinancialReportRow)
        /// A row that cannot be read: its line, what is wrong (a sentence) and its first characters.
        case rejected(line: Int, message: String, excerpt: String)
    }

    /// What the whole file said, once read.
    public struct Summary: Sendable, Equatable {
        /// `Vendor Name` of the preamble.
        public var vendorName: String?
        /// `Start Date` … `End Date` of the preamble.
        public var statedPeriod: ClosedRange<ReportDay>?
        /// The first and last `Transaction Date` of the rows read.
        public var rowDays: ClosedRange<ReportDay>?
        public var rows = 0
        public var rejected = 0

        /// The report's period: the preamble's, else its rows' first to last day.
        public var period: ClosedRange<ReportDay>? { statedPeriod ?? rowDays }
    }

    public let file: InputFile
    let maxLineBytes: Int

    public init(file: InputFile, maxLineBytes: Int = DocumentReader.defaultMaxDocumentBytes) {
        self.file = file
        self.maxLineBytes = maxLineBytes
    }

    /// Looks at the first lines only.
    public func recognize() -> Recognition {
        var preamble = Preamble()
        var lines = 0
        for item in DocumentReader(file: file, maxDocumentBytes: maxLineBytes) {
            guard case .document(_, let bytes) = item else {
                return preamble.isPresent ? .unusableReport("it cannot be read: \(item)") : .notAReport
            }
            if lines == 0, UTF16Detection.startsWithByteOrderMark(bytes) {
                let text = PaymentSummaryReader.utf16Text(bytes)
                let named = ["Vendor Name", "Start Date", "Transaction Date"].contains { text.contains($0) }
                return named
                    ? .unusableReport(
                        "it is encoded as UTF-16; save it as UTF-8 (as Apple writes it) and load it again")
                    : .notAReport
            }
            let cells = Self.cells(bytes)
            if preamble.take(cells) { continue }
            if let header = Header(cells) { return header.refusal.map { .unusableReport($0) } ?? .report }
            lines += 1
            if lines >= Self.headerSearchLines { break }
        }
        return preamble.isPresent
            ? .unusableReport(
                "it has a financial report's preamble but no header row naming \(Self.requiredColumns.joined(separator: ", "))"
            )
            : .notAReport
    }

    /// Reads every row, handing each to `body` in file order.
    /// - Throws: ``FinancialReportError`` when the file as a whole cannot be a report (no header, missing columns, a
    ///   preamble date that is not a date); whatever `body` throws.
    public func read(_ body: (Item) throws -> Void) throws -> Summary {
        var summary = Summary()
        var preamble = Preamble()
        var header: Header?
        var reader = DocumentReader(file: file, maxDocumentBytes: maxLineBytes).makeIterator()
        var linesBeforeHeader = 0
        var inSummaryBlock = false
        var totals = FinancialReportTotals()
        while let item = reader.next() {
            let line: Int
            let bytes: [UInt8]
            switch item {
            case .document(let number, let content):
                (line, bytes) = (number, content)
                if let problem = UTF8Validation.problem(content) {
                    throw FinancialReportError(file: file.path, reason: "line \(number): \(problem)")
                }
            case .failure(let number, let failure):
                guard header != nil else {
                    throw FinancialReportError(file: file.path, reason: "line \(number): \(failure.clause)")
                }
                summary.rejected += 1
                try body(.rejected(line: number, message: failure.message, excerpt: ""))
                continue
            }
            let cells = Self.cells(bytes)
            guard let columns = header else {
                if preamble.take(cells) { continue }
                if let found = Header(cells) {
                    if let refusal = found.refusal { throw FinancialReportError(file: file.path, reason: refusal) }
                    header = found
                    summary.vendorName = preamble.vendorName
                    summary.statedPeriod = try preamble.period(file: file.path)
                    continue
                }
                linesBeforeHeader += 1
                if linesBeforeHeader >= Self.headerSearchLines {
                    throw FinancialReportError(
                        file: file.path,
                        reason:
                            "no header row naming \(Self.requiredColumns.joined(separator: ", ")) in its first lines")
                }
                continue
            }
            // The trailing summary block (per country, or Apple's older `Total_…` lines) ends the rows; a line that
            // looks like a row after it means the block was not the end (a file cut and pasted together, or a
            // summary-looking row): the file is not believed.
            let first = cells.first.map { Self.trimmed($0).lowercased() } ?? ""
            if first == "country of sale" || first.hasPrefix("total_") {
                inSummaryBlock = true
                continue
            }
            if inSummaryBlock {
                guard cells.count < columns.names.count else {
                    throw FinancialReportError(
                        file: file.path,
                        reason: "line \(line) is a report row after the trailing summary block, which ends a report")
                }
                continue
            }
            switch columns.row(cells, line: line) {
            case .success(let row):
                if let period = summary.statedPeriod, !period.contains(row.transactionDate) {
                    throw FinancialReportError(
                        file: file.path,
                        reason:
                            "line \(line): its Transaction Date \(row.transactionDate.isoText) is outside the report's period \(period.lowerBound.isoText) to \(period.upperBound.isoText)"
                    )
                }
                totals.add(row)
                guard totals.isWithinBounds else {
                    throw FinancialReportError(
                        file: file.path,
                        reason:
                            "line \(line): its amounts add up past what one report can hold (\(FinancialReportBounds.fileText)), so no sum of it would be exact"
                    )
                }
                summary.rows += 1
                summary.rowDays =
                    summary.rowDays.map {
                        min($0.lowerBound, row.transactionDate)...max($0.upperBound, row.transactionDate)
                    } ?? row.transactionDate...row.transactionDate
                try body(.row(row))
            case .failure(let problem):
                summary.rejected += 1
                try body(.rejected(line: line, message: problem.message, excerpt: Self.excerpt(bytes)))
            }
        }
        guard header != nil else {
            throw FinancialReportError(
                file: file.path, reason: "no header row naming \(Self.requiredColumns.joined(separator: ", "))")
        }
        if let days = summary.rowDays, summary.statedPeriod == nil {
            // Without a preamble the rows' days are the period: they must lie in one fiscal month.
            guard let month = AppleFiscalMonth(containing: days.lowerBound), days.upperBound <= month.lastDay else {
                throw FinancialReportError(
                    file: file.path,
                    reason:
                        "its rows run from \(days.lowerBound.isoText) to \(days.upperBound.isoText), which is not within one of Apple's fiscal months"
                )
            }
        }
        return summary
    }

    /// The tab-separated cells of a line (a trailing carriage return was dropped by the reader).
    static func cells(_ bytes: [UInt8]) -> [String] {
        bytes.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " { scalars = scalars.dropLast() }
        return String(scalars)
    }

    /// At most 200 characters of the line, for a reviewer.
    static func excerpt(_ bytes: [UInt8]) -> String {
        String(String(decoding: bytes.prefix(800), as: UTF8.self).prefix(200))
    }

    /// The `Vendor Name`, `Start Date` and `End Date` lines before the header.
    struct Preamble {
        var vendorName: String?
        var start: String?
        var end: String?

        var isPresent: Bool { vendorName != nil || start != nil || end != nil }

        /// Takes a preamble line; false when the line is not one.
        mutating func take(_ cells: [String]) -> Bool {
            guard cells.count >= 2 else { return false }
            let value = FinancialReportReader.trimmed(cells[1])
            switch FinancialReportReader.trimmed(cells[0]).lowercased() {
            case "vendor name": vendorName = value
            case "start date": start = value
            case "end date": end = value
            default: return false
            }
            return true
        }

        func period(file: String) throws -> ClosedRange<ReportDay>? {
            guard start != nil || end != nil else { return nil }
            guard let startText = start, let endText = end else {
                throw FinancialReportError(
                    file: file, reason: "its preamble gives a Start Date or an End Date but not both")
            }
            guard let first = ReportDay(appleText: startText), let last = ReportDay(appleText: endText) else {
                throw FinancialReportError(
                    file: file,
                    reason:
                        "its preamble's Start Date \"\(startText.prefix(40))\" or End Date \"\(endText.prefix(40))\" is not a day MM/DD/YYYY between 2008 and 2099"
                )
            }
            guard first <= last else {
                throw FinancialReportError(
                    file: file, reason: "its preamble's End Date \(endText) is before its Start Date \(startText)")
            }
            guard let month = AppleFiscalMonth(containing: first), month.firstDay == first, month.lastDay == last else {
                throw FinancialReportError(
                    file: file,
                    reason:
                        "its period \(first.isoText) to \(last.isoText) is not one of Apple's fiscal months (each runs four or five whole weeks, Sunday to Saturday, as 2026-03-01 to 2026-03-28)"
                )
            }
            return first...last
        }
    }
}

/// The running sums of one report's amounts: a report whose sums would leave the bounds is refused, so that no sum the
/// models take over it (or over years of reports) can overflow 64 bits on either engine.
struct FinancialReportTotals {
    private(set) var units: UInt64 = 0
    private(set) var milliunits: UInt64 = 0

    mutating func add(_ row: FinancialReportRow) {
        units = units.addingReportingOverflow(row.quantity.magnitude).partialValue
        let gross = row.customerPriceMilli.magnitude.multipliedReportingOverflow(by: row.quantity.magnitude)
            .partialValue
        milliunits = milliunits.addingReportingOverflow(gross).partialValue
        milliunits = milliunits.addingReportingOverflow(row.extendedPartnerShareMilli.magnitude).partialValue
    }

    var isWithinBounds: Bool {
        units <= UInt64(FinancialReportBounds.fileUnits) && milliunits <= UInt64(FinancialReportBounds.fileMilli)
    }
}
