import Foundation
import IAPPipeline
import IAPTestSupport
import Testing

/// The MRR in the reporting currency (Documentation/Reports.md "mrr.csv"): on each month page, every currency of
/// `mrr.csv` converted at the rates the page names and summed; on the index, its trend.
@Suite struct MRRInReportingCurrencyTests {
    @Test func eachMonthsMRRIsItsCurrenciesAtTheNamedRatesSummed() throws {
        let root = NSTemporaryDirectory() + "iaplens-mrr-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let reports = root + "/reports"
        _ = try Pipeline(
            configuration: SimulatedArchive.sampleConfiguration(database: root + "/store.sqlite", reports: reports)
        ).run()
        var checked = 0
        for month in (1...12).map({ String(format: "2025-%02d", $0) }) {
            var totals: [String: Int64] = [:]
            for row in CSVReader.records(try String(contentsOfFile: "\(reports)/\(month)/mrr.csv", encoding: .utf8)) {
                totals[row["currency"] ?? "", default: 0] += Int64(row["mrr_milli"] ?? "") ?? 0
            }
            let page = try String(contentsOfFile: "\(reports)/\(month)/report.md", encoding: .utf8)
            let line = try #require(
                page.split(separator: "\n").first {
                    $0.hasPrefix("**In USD**: ") && $0.contains(" a month, each currency")
                },
                "\(month) states its MRR in USD")
            // The rates the line names: `EUR 1.08231 (fiscal 2025-10)`.
            var rates: [String: Decimal] = ["USD": 1]
            if let named = line.components(separatedBy: "Rates used: ").dropFirst().first {
                for part in named.dropLast().components(separatedBy: "; ") {
                    let words = part.split(separator: " ")
                    rates[String(words[0])] = Decimal(string: String(words[1]))
                }
            }
            var expected: Int64 = 0
            for (currency, milli) in totals {
                let rate = try #require(rates[currency], "\(month): a rate for \(currency)")
                var product = Decimal(milli) * rate, rounded = Decimal()
                NSDecimalRound(&rounded, &product, 0, .plain)
                expected += NSDecimalNumber(decimal: rounded).int64Value
            }
            let cents = (expected + 5) / 10
            let shown = "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100) USD a month"
            #expect(line.contains("**In USD**: \(shown)"), "\(month): \(line) against \(totals)")
            if month == "2025-06" {
                // The base is counted at the month's end: June 30 lies in Apple's fiscal July (June 29 to August 2).
                #expect(line.contains("EUR 1.08231 (fiscal 2025-07)"), "\(line)")
            }
            checked += 1
        }
        #expect(checked == 12)
        let index = try String(contentsOfFile: reports + "/index.md", encoding: .utf8)
        #expect(index.contains("### Monthly recurring revenue, every currency in USD"))
        #expect(FileManager.default.fileExists(atPath: reports + "/charts/mrr-all-in-usd.svg"))
    }
}
