import Foundation
import IAPFinanceFiles
import IAPFormats

/// Download Finance Reports for every fiscal month the reports need (Documentation/Fetching.md "Apple's financial
/// reports"): each fiscal month that covers a day of the months the store's data spans, through the last fiscal month
/// that has ended, fetched once into `fetched/finance/`. Apple answers 404 both while a month is not yet published and
/// for a month without sales: a 404 is asked again on the next fetch, until a later month has been published; then
/// the month is recorded as one without a report and no longer asked.
struct FinanceReportFetch: Sendable {
    static func cursor(vendor: String, month: String) -> String { "finance_report.\(vendor).\(month)" }
    static let saved = "saved"
    static let noReport = "no_report"

    let api: AppStoreConnectAPI
    let writer: ArchivePageWriter
    let cursors: FetchCursors
    let vendorNumber: String
    /// When set, the `Vendor Name` every saved report must give (``FinanceFetchOptions/vendorName``).
    var vendorName: String? = nil

    struct Result: Equatable {
        var saved = 0
        var alreadySaved = 0
        var pending: [String] = []
        var withoutReport = 0
        /// Answers that were not a whole report of the asked month: not saved, asked again next time (a sentence each).
        var refused: [String] = []
    }

    /// Why a downloaded report cannot be kept (nil: it is a whole report of `month`): it must decompress and read to its
    /// end as Ingest would read it, every row included, its period must be the fiscal month asked for, and, when
    /// `vendorName` is given, its `Vendor Name` must be that one.
    static func problem(with bytes: [UInt8], month: AppleFiscalMonth, vendorName: String? = nil) -> String? {
        let path = NSTemporaryDirectory() + "iaplens-finance-check-\(UUID().uuidString).txt"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            return "it could not be checked (the temporary folder is not writable)"
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = FinancialReportReader(file: InputFile(path: path, byteCount: Int64(bytes.count)))
        guard reader.recognize() == .report else { return "the answer is not a financial report Apple writes" }
        do {
            var rowProblem: String?
            let summary = try reader.read { item in
                if case .rejected(let line, let message, _) = item, rowProblem == nil {
                    rowProblem = "line \(line): \(message)"
                }
            }
            if let rowProblem { return rowProblem }
            guard let period = summary.period else { return "the answer names no period and has no rows" }
            guard period.lowerBound == month.firstDay, period.upperBound == month.lastDay else {
                return
                    "the answer is for \(period.lowerBound.isoText) to \(period.upperBound.isoText), not fiscal month \(month.text) (\(month.firstDay.isoText) to \(month.lastDay.isoText))"
            }
            if let vendorName, summary.vendorName != vendorName {
                let named = summary.vendorName.map { "vendor \"\($0.prefix(80))\"" } ?? "no vendor"
                return
                    "the answer names \(named), not \"\(vendorName)\" (--vendor-name): check --vendor-number, or --vendor-name against the Vendor Name line of a report downloaded from App Store Connect"
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The fiscal months from the one holding the first day of `span`'s first UTC month to the one holding the last
    /// day of its last month, keeping only those that ended before `today` (a day in Apple's zone).
    static func months(span: ClosedRange<Int64>, today: ReportDay) -> [AppleFiscalMonth] {
        guard let firstDay = ReportDay(isoText: ISO8601Millis.format(span.lowerBound).prefix(7) + "-01"),
            let lastMonthStart = ReportDay(isoText: ISO8601Millis.format(span.upperBound).prefix(7) + "-01"),
            let nextMonthStart = ReportDay(daysSinceEpoch: lastMonthStart.daysSinceEpoch + 31)
                .flatMap({ ReportDay(year: $0.year, month: $0.month, day: 1) }),
            let monthEnd = ReportDay(daysSinceEpoch: nextMonthStart.daysSinceEpoch - 1),
            var month = AppleFiscalMonth(containing: firstDay)
        else { return [] }
        var months: [AppleFiscalMonth] = []
        while month.firstDay <= monthEnd && month.lastDay < today {
            months.append(month)
            guard let next = month.next else { break }
            month = next
        }
        return months
    }

    func run(months: [AppleFiscalMonth], progress: @Sendable (String) -> Void) async throws -> Result {
        var result = Result()
        var notPublished: [AppleFiscalMonth] = []
        var latestPublished: AppleFiscalMonth?
        for (index, month) in months.enumerated() {
            let name = Self.cursor(vendor: vendorNumber, month: month.text)
            switch try cursors.value(name) {
            case Self.saved?:
                result.alreadySaved += 1
                latestPublished = month
                continue
            case Self.noReport?:
                result.withoutReport += 1
                continue
            default:
                break
            }
            progress("financial reports: \(index + 1) of \(months.count) fiscal months (\(month.text))")
            switch try await api.financeDetail(month: month.text, vendorNumber: vendorNumber) {
            case .report(let bytes):
                // Believed only whole: a truncated, garbled or other month's answer is not saved, and asked again.
                if let problem = Self.problem(with: bytes, month: month, vendorName: vendorName) {
                    result.refused.append("\(month.text): \(problem)")
                    continue
                }
                let file = "finance/FINANCE_DETAIL_Z1_\(ArchivePageWriter.safeName(vendorNumber))_\(month.text).txt.gz"
                try writer.write(bytes: bytes, to: file)
                // The file is in the archive before the store says so: a fetch killed in between asks again and
                // finds the same file (ingest skips it by content).
                try cursors.set(name, Self.saved)
                result.saved += 1
                latestPublished = month
            case .notPublished:
                notPublished.append(month)
            }
        }
        for month in notPublished {
            if let latestPublished, month < latestPublished {
                try cursors.set(Self.cursor(vendor: vendorNumber, month: month.text), Self.noReport)
                result.withoutReport += 1
            } else {
                result.pending.append(month.text)
            }
        }
        return result
    }
}
