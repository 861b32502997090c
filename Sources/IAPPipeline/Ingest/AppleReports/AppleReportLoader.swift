import Foundation
import IAPFinanceFiles
import IAPFormats
import IAPStore

/// Loads Apple's financial reports among the input files (Documentation/Inputs.md "Apple's financial reports"). A
/// report is recognised by its header row whatever its name, so the files discovery set aside as not JSON are
/// looked at here; each report is one store transaction, skipped by content hash once read.
struct AppleReportLoader {
    /// What the loader did with the candidates.
    struct Result {
        /// Files that were not financial reports (still "ignored" for the summary).
        var notReports: [String] = []
        /// Report files found (read now, or already read).
        var reportsFound = 0
        var reportsLoaded = 0
        var reportsAlreadyRead = 0
        var rowsLoaded = 0
        /// Quarantined, by reason code: bad rows, and whole reports refused.
        var quarantinedByReason: [String: Int] = [:]
        var unreadableFiles: [String] = []
        /// One sentence per refused report.
        var refusals: [String] = []
        /// One sentence per file that repeats a report or summary loaded from another file (counted as already read).
        var copies: [String] = []
        var paymentSummariesFound = 0
        var paymentSummariesLoaded = 0
    }

    let store: any StoreEngine
    let runId: Int64

    func load(candidates: [String], alreadyRead: Set<String>) throws -> Result {
        var result = Result()
        var seen = alreadyRead
        let writer = AppleReportWriter(store: store)
        for path in candidates {
            let input = InputFile(path: path, byteCount: Self.size(of: path))
            let paymentRecognition = PaymentSummaryReader(file: input).recognize()
            if paymentRecognition != .notASummary {
                try loadPaymentSummary(input, recognition: paymentRecognition, seen: &seen, into: &result)
                continue
            }
            let reader = FinancialReportReader(file: input)
            let recognition = reader.recognize()
            guard recognition != .notAReport else {
                result.notReports.append(path)
                continue
            }
            result.reportsFound += 1
            let digest: FileDigestResult
            do {
                digest = try FileDigest.digest(ofFileAt: path, prefixLength: nil)
            } catch {
                result.unreadableFiles.append("\(path): \(error)")
                continue
            }
            guard seen.insert(digest.sha256).inserted else {
                result.reportsAlreadyRead += 1
                continue
            }
            let file = AppleReportWriter.File(
                sha256: digest.sha256, path: path, byteCount: digest.byteCount, runId: runId)
            if case .unusableReport(let reason) = recognition {
                let message = FinancialReportError(file: path, reason: reason).description
                try writer.refuse(file, reason: .badReport, message: message)
                result.quarantinedByReason[QuarantineReason.badReport.rawValue, default: 0] += 1
                result.refusals.append(message)
                continue
            }
            let outcome: AppleReportWriter.Outcome
            do {
                outcome = try writer.load(file) { sink in
                    let summary = try reader.read { item in
                        switch item {
                        case .row(let row): try sink.add(Self.storeRow(row))
                        case .rejected(let line, let message, _):
                            // Apple's books are believed only whole: one unreadable row refuses the file.
                            throw FinancialReportError(
                                file: path, reason: "line \(line): \(message) Nothing of it was loaded")
                        }
                    }
                    return AppleReportWriter.Period(vendorName: summary.vendorName, days: summary.period.map(Self.days))
                }
            } catch let error as FinancialReportError {
                try writer.refuse(file, reason: .badReport, message: error.description)
                outcome = .refused(reason: .badReport, message: error.description)
            }
            switch outcome {
            case .loaded(let rows, _, _):
                result.reportsLoaded += 1
                result.rowsLoaded += rows
            case .refused(let reason, let message):
                result.quarantinedByReason[reason.rawValue, default: 0] += 1
                result.refusals.append(message)
            case .copy(let original):
                result.reportsAlreadyRead += 1
                result.copies.append(Self.copySentence(path, kind: "financial report", original: original))
            }
        }
        return result
    }

    /// Loads one payment summary (Documentation/Inputs.md "Apple's payment summary"): read whole or refused whole.
    private func loadPaymentSummary(
        _ input: InputFile, recognition: PaymentSummaryReader.Recognition, seen: inout Set<String>,
        into result: inout Result
    ) throws {
        result.paymentSummariesFound += 1
        let digest: FileDigestResult
        do {
            digest = try FileDigest.digest(ofFileAt: input.path, prefixLength: nil)
        } catch {
            result.unreadableFiles.append("\(input.path): \(error)")
            return
        }
        guard seen.insert(digest.sha256).inserted else {
            result.reportsAlreadyRead += 1
            return
        }
        let file = AppleReportWriter.File(
            sha256: digest.sha256, path: input.path, byteCount: digest.byteCount, runId: runId)
        func refuse(_ message: String) throws {
            try AppleReportWriter(store: store).refuse(file, reason: .badReport, message: message)
            result.quarantinedByReason[QuarantineReason.badReport.rawValue, default: 0] += 1
            result.refusals.append(message)
        }
        if case .unusable(let reason) = recognition {
            return try refuse(PaymentSummaryError(file: input.path, line: 0, reason: reason).description)
        }
        let summary: PaymentSummary
        do {
            summary = try PaymentSummaryReader(file: input).read()
        } catch {
            return try refuse(error.description)
        }
        let rows = summary.rows.map { row in
            ApplePaymentRow(
                line: row.line, section: row.section.rawValue, region: row.region, currency: row.currency,
                unitsSold: row.unitsSold, beginningBalanceMilli: row.beginningBalanceMilli,
                earnedMilli: row.earnedMilli,
                preTaxSubtotalMilli: row.preTaxSubtotalMilli, inputTaxMilli: row.inputTaxMilli,
                adjustmentsMilli: row.adjustmentsMilli, withholdingTaxMilli: row.withholdingTaxMilli,
                totalOwedMilli: row.totalOwedMilli, exchangeRate: row.exchangeRate, proceedsMilli: row.proceedsMilli,
                bankCurrency: row.bankCurrency, otherColumns: Self.json(row.otherColumns))
        }
        let outcome = try ApplePaymentWriter(store: store).load(
            file,
            .init(title: summary.title, fiscalMonth: summary.fiscalMonth.text, isPending: summary.isPending, rows: rows)
        )
        switch outcome {
        case .loaded:
            result.paymentSummariesLoaded += 1
        case .refused(let message):
            result.quarantinedByReason[QuarantineReason.overlappingReport.rawValue, default: 0] += 1
            result.refusals.append(message)
        case .copy(let original):
            result.reportsAlreadyRead += 1
            result.copies.append(Self.copySentence(input.path, kind: "payment summary", original: original))
        }
    }

    static func copySentence(_ path: String, kind: String, original: String) -> String {
        "\(path) holds the same \(kind) as \(original), loaded earlier (a gzip file and its unpacked copy, say): "
            + "counted as already read, nothing loaded twice."
    }

    /// Columns iaplens does not read, as one canonical JSON object (nil when none); a repeated name keeps every value
    /// (the second is "Name (2)").
    static func json(_ columns: [(name: String, value: String)]) -> String? {
        guard !columns.isEmpty else { return nil }
        var names: Set<String> = []
        var pairs: [(String, JSONValue)] = []
        for column in columns {
            var name = column.name
            var copy = 1
            while !names.insert(name).inserted {
                copy += 1
                name = "\(column.name) (\(copy))"
            }
            pairs.append((name, .string(column.value)))
        }
        return String(decoding: JSONValue.object(JSONObject(pairs)).canonicalJSON(), as: UTF8.self)
    }

    /// Every day of a period, `YYYY-MM-DD`.
    static func days(_ period: ClosedRange<ReportDay>) -> [String] {
        (period.lowerBound.daysSinceEpoch...period.upperBound.daysSinceEpoch).compactMap {
            ReportDay(daysSinceEpoch: $0)?.isoText
        }
    }

    static func storeRow(_ row: FinancialReportRow) -> AppleReportRow {
        let others = json(row.otherColumns)
        let region = row.otherColumns.first { $0.name.lowercased() == "region" }.map { $0.value.trimmingSpaces }
        return AppleReportRow(
            line: row.line, transactionDate: row.transactionDate.isoText, settlementDate: row.settlementDate?.isoText,
            sku: row.sku, productTypeIdentifier: row.productTypeIdentifier, countryOfSale: row.countryOfSale,
            quantity: row.quantity, partnerShareMilli: row.partnerShareMilli,
            extendedPartnerShareMilli: row.extendedPartnerShareMilli, partnerShareCurrency: row.partnerShareCurrency,
            customerPriceMilli: row.customerPriceMilli, customerCurrency: row.customerCurrency,
            saleOrReturn: row.saleOrReturn, otherColumns: others, region: region?.isEmpty == false ? region : nil)
    }

    static func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
