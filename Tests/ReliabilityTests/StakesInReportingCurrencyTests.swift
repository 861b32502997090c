import Foundation
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// `--reporting-currency` and the review queue's money at stake (Documentation/Reports.md "The review queue"): every
/// currency at stake converted at the month's paid rate and summed, on both engines alike; without the option the
/// bank currency of the latest paid summary (USD in the sample), as the pages' money figures.
@Suite struct StakesInReportingCurrencyTests {
    private func flaggedRows(_ kind: StoreKind, reporting: String?, root: String) throws -> [String: [[String: String]]]
    {
        let folder = root + "/" + kind.rawValue + (reporting ?? "-main")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var configuration = SimulatedArchive.sampleConfiguration(
            database: try kind.freshDatabase(in: folder), reports: folder + "/reports")
        configuration.reportingCurrency = reporting
        _ = try Pipeline(configuration: configuration).run()
        var months: [String: [[String: String]]] = [:]
        for month in ["2025-10", "2025-11", "2025-12"] {
            let text = try String(contentsOfFile: folder + "/reports/\(month)/flagged_accounts.csv", encoding: .utf8)
            months[month] = CSVReader.records(text)
        }
        return months
    }

    @Test func everyStakeIsConvertedAtItsMonthsRateAndTheEnginesAgree() throws {
        let root = NSTemporaryDirectory() + "iaplens-stakes-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let main = try flaggedRows(.sqlite, reporting: nil, root: root)
        let euro = try flaggedRows(.sqlite, reporting: "EUR", root: root)
        #expect(try flaggedRows(.sqlite, reporting: "USD", root: root) == main, "the default is the bank currency, USD")
        #expect(try flaggedRows(.postgres, reporting: "EUR", root: root) == euro, "both engines convert alike")
        var compared = 0
        for (month, rows) in main {
            let converted = try #require(euro[month])
            #expect(rows.count == converted.count)
            // One month, one rate: each account's EUR figure over its USD figure is the same ratio, to the rounding.
            var ratios: [Double] = []
            for (before, after) in zip(rows, converted) {
                #expect(before["account_id"] == after["account_id"])
                // Only the two at-stake columns change.
                #expect(
                    before.filter { !$0.key.hasPrefix("at_stake") } == after.filter { !$0.key.hasPrefix("at_stake") })
                guard before["at_stake_currency"] == "USD", let usd = Double(before["at_stake_milli"] ?? ""),
                    usd > 10_000
                else { continue }
                #expect(after["at_stake_currency"] == "EUR")
                ratios.append((Double(after["at_stake_milli"] ?? "") ?? 0) / usd)
                compared += 1
            }
            if let low = ratios.min(), let high = ratios.max() {
                #expect(high - low < 0.001, "\(month): \(ratios)")
                #expect(low > 0.5 && high < 1.5)
            }
        }
        #expect(compared >= 3, "the sample has flagged accounts with money at stake in USD")
    }
}
