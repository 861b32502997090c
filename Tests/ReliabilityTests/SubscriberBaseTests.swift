import Foundation
import IAPPipeline
import IAPTestSupport
import Testing

/// subscriptions.csv on a simulated app whose rates are known (Documentation/Reports.md "subscriptions.csv"), and the
/// display rules on the committed sample's pages.
@Suite struct SubscriberBaseTests {
    private func records(_ reports: String, _ month: String) throws -> [[String: String]] {
        CSVReader.records(try String(contentsOfFile: "\(reports)/\(month)/subscriptions.csv", encoding: .utf8))
    }

    @Test func ratesLandNearWhatWasSimulatedAndTheBaseCarriesOver() throws {
        // 400 subscribers, all V2: a monthly period ends in a cancellation 6 % of the time, in a refund 3 %, and a
        // price increase (4 %) is sometimes declined: voluntary churn about 10-13 % a month; 35 % of new monthly
        // subscribers start with a free week that converts 65 % of the time.
        let archive = try SimulatedArchive(
            seed: 7, subscribers: 400, consumableBuyers: 10, refundRings: 0, months: 12, allV2: true)
        let outputs = try archive.outputs("sqlite")
        _ = try Pipeline(configuration: archive.configuration(database: outputs.database, reports: outputs.reports))
            .run()
        let months = try FileManager.default.contentsOfDirectory(atPath: outputs.reports)
            .filter { $0.count == 7 && $0.hasPrefix("20") }.sorted()
        var activeStart = 0, voluntary = 0, trialsEnded = 0, converted = 0
        for (index, month) in months.enumerated() {
            let rows = try records(outputs.reports, month)
            // The base at one month's end is the next month's start, product by product.
            if index + 1 < months.count {
                let next = try records(outputs.reports, months[index + 1])
                for row in rows {
                    let following = next.first { $0["product_id"] == row["product_id"] }?["active_start"] ?? "0"
                    #expect(
                        row["active_end"] == following,
                        "\(month) \(row["product_id"] ?? ""): end \(row["active_end"] ?? "") vs next start \(following)"
                    )
                }
            }
            // Steady months (the first quarter fills the base up) of the monthly plan.
            for row in rows
            where row["product_id"]?.hasSuffix(".monthly") == true && index >= 3 && index + 1 < months.count {
                activeStart += Int(row["active_start"] ?? "") ?? 0
                voluntary += Int(row["churned_voluntary"] ?? "") ?? 0
                trialsEnded += Int(row["trials_ended"] ?? "") ?? 0
                converted += Int(row["trials_converted"] ?? "") ?? 0
            }
        }
        #expect(
            activeStart > 300 && trialsEnded > 25, "enough to measure: \(activeStart) active, \(trialsEnded) trials")
        let churnRate = Double(voluntary) / Double(max(1, activeStart))
        let conversion = Double(converted) / Double(max(1, trialsEnded))
        #expect((0.08...0.17).contains(churnRate), "voluntary churn rate \(churnRate)")
        #expect((0.50...0.80).contains(conversion), "trial conversion \(conversion) (simulated 0.65)")
    }

    @Test func theSamplePagesMarkProvisionalMonthsAndComputeNoChangeFromThem() throws {
        let reports = CLI.repositoryRoot + "/reports"
        let months = try FileManager.default.contentsOfDirectory(atPath: reports).filter {
            $0.count == 7 && $0.hasPrefix("20")
        }.sorted()
        var provisional = 0
        for month in months {
            let page = try String(contentsOfFile: "\(reports)/\(month)/report.md", encoding: .utf8)
            let isProvisional = page.contains("**Provisional month.**")
            if isProvisional { provisional += 1 }
            for line in page.split(separator: "\n") where line.hasPrefix("| ") {
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count == 4, cells[3].hasSuffix("%)") || cells[3].hasSuffix(" pp") else { continue }
                // Only the figures that still move while a month is provisional go uncompared; money and counts of
                // what happened are final at once.
                let settles = ["Churn rate", "Trial conversion", "Subscriptions churned", "Billing-retry"].contains {
                    cells[0].hasPrefix($0)
                }
                #expect(!isProvisional || !settles, "\(month): a change from a provisional month: \(line)")
                // A percentage only from a base of at least 10.
                if cells[3].hasSuffix("%)") {
                    let base =
                        Double(
                            cells[2].split(separator: " ").first.map(String.init)?.replacingOccurrences(
                                of: "−", with: "-"
                            ).replacingOccurrences(of: ",", with: "") ?? "") ?? 0
                    #expect(abs(base) >= 10, "\(month): a percentage from a base under 10: \(line)")
                }
            }
        }
        #expect(provisional >= 1, "the sample's last months are provisional")
        let index = try String(contentsOfFile: reports + "/index.md", encoding: .utf8)
        #expect(index.contains("_provisional_"))
        #expect(!index.contains("−100.0 %") && !index.contains("+4096.2 %"))
    }
}
