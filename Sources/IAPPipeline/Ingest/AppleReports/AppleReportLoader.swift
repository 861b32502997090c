import Foundation
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
    }

    let store: any StoreEngine
    let runId: Int64

    func load(candidates: [String], alreadyRead: Set<String>) throws -> Result {
        var result = Result()
        var seen = alreadyRead
        let writer = AppleReportWriter(store: store)
        for path in candidates {
            let input = InputFile(path: path, byteCount: Self.size(of: path))
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
            let file = AppleReportWriter.File(sha256: digest.sha256, path: path, byteCount: digest.byteCount, runId: runId)
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
                        case .rejected(let line, let message, let excerpt): try sink.reject(line: line, message: message, excerpt: excerpt)
                        }
                    }
                    return AppleReportWriter.Period(vendorName: summary.vendorName, days: summary.period.map(Self.days))
                }
            } catch let error as FinancialReportError {
                try writer.refuse(file, reason: .badReport, message: error.description)
                outcome = .refused(reason: .badReport, message: error.description)
            }
            switch outcome {
            case .loaded(let rows, let rejected, _, _):
                result.reportsLoaded += 1
                result.rowsLoaded += rows
                if rejected > 0 { result.quarantinedByReason[QuarantineReason.badReportRow.rawValue, default: 0] += rejected }
            case .refused(let reason, let message):
                result.quarantinedByReason[reason.rawValue, default: 0] += 1
                result.refusals.append(message)
            }
        }
        return result
    }

    /// Every day of a period, `YYYY-MM-DD`.
    static func days(_ period: ClosedRange<ReportDay>) -> [String] {
        (period.lowerBound.daysSinceEpoch...period.upperBound.daysSinceEpoch).compactMap {
            ReportDay(daysSinceEpoch: $0)?.isoText
        }
    }

    static func storeRow(_ row: FinancialReportRow) -> AppleReportRow {
        var others: String?
        if !row.otherColumns.isEmpty {
            // A name the header repeats keeps every value: the second is "Name (2)".
            var names: Set<String> = []
            var pairs: [(String, JSONValue)] = []
            for column in row.otherColumns {
                var name = column.name
                var copy = 1
                while !names.insert(name).inserted {
                    copy += 1
                    name = "\(column.name) (\(copy))"
                }
                pairs.append((name, .string(column.value)))
            }
            others = String(decoding: JSONValue.object(JSONObject(pairs)).canonicalJSON(), as: UTF8.self)
        }
        return AppleReportRow(
            line: row.line, transactionDate: row.transactionDate.isoText, settlementDate: row.settlementDate?.isoText,
            sku: row.sku, productTypeIdentifier: row.productTypeIdentifier, countryOfSale: row.countryOfSale,
            quantity: row.quantity, partnerShareMilli: row.partnerShareMilli,
            extendedPartnerShareMilli: row.extendedPartnerShareMilli, partnerShareCurrency: row.partnerShareCurrency,
            customerPriceMilli: row.customerPriceMilli, customerCurrency: row.customerCurrency,
            saleOrReturn: row.saleOrReturn, otherColumns: others)
    }

    private static func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
