import Foundation
import IAPFormats
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// Apple's financial reports beside the archive (Documentation/Reports.md "apple_reconciliation.csv"), on both engines.
@Suite struct AppleReconciliationTests {
    private func run(_ archive: TestArchive, database: String, reports: String? = nil) throws -> RunSummary {
        try Pipeline(configuration: try archive.configuration { configuration in
            configuration.databasePath = database
            if let reports { configuration.reportsDirectory = reports }
        }).run()
    }

    private func reconciliation(_ archive: TestArchive, reports: String? = nil) throws -> [[String: String]] {
        CSVReader.records(try String(contentsOfFile: (reports ?? archive.reports) + "/2026-03/apple_reconciliation.csv", encoding: .utf8))
    }

    @Test(arguments: StoreKind.allCases)
    func aLostDayIsNamedExactlyAsArchiveShort(_ kind: StoreKind) throws {
        let world = try FinanceWorld(lostIndex: 2)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        try archive.write("apple/FINANCE_DETAIL_Z1_2026-03.txt.gz", bytes: Array(world.report.utf8))
        let database = try kind.freshDatabase(in: archive.root)
        let summary = try run(archive, database: database)
        #expect(summary.ingest.appleReportsLoaded == 1 && summary.ingest.appleReportRows > 0)
        let rows = try reconciliation(archive)
        let usd = try #require(rows.first { $0["currency"] == "USD" })
        #expect(usd["product_id"] == FinanceWorld.coins)
        #expect(usd["status"] == "archive_short")
        #expect(usd["first_gap_day"] == "2026-03-04" && usd["last_gap_day"] == "2026-03-04")
        #expect(usd["days_covered"] == "28")
        let appleSold = Int(usd["apple_units_sold"] ?? "") ?? -1
        let archiveSold = Int(usd["archive_units_sold"] ?? "") ?? -1
        #expect(appleSold - archiveSold == world.lostUnits)
        #expect((Int64(usd["apple_gross_milli"] ?? "") ?? 0) - (Int64(usd["archive_gross_milli"] ?? "") ?? 0) == world.lostGrossMilli)
        // The refund on the 5th (late evening Pacific, the 6th in UTC) is on both sides.
        #expect(usd["apple_units_refunded"] == "2" && usd["archive_units_refunded"] == "2")
        #expect(usd["proceeds_currency"] == "USD")
        let jpy = try #require(rows.first { $0["currency"] == "JPY" })
        #expect(jpy["status"] == "match" && jpy["first_gap_day"] == "" && jpy["apple_units_sold"] == jpy["archive_units_sold"])
        // The page says what to run: Notification History over that Pacific day, as UTC instants.
        let page = try archive.report("2026-03/report.md")
        #expect(page.contains("Against Apple's financial reports"))
        #expect(page.contains("iaplens fetch --since 2026-03-04T08:00:00Z --until 2026-03-05T08:00:00Z"))
    }

    @Test func theSameReportTwiceIsSkippedAndAnOverlappingOneRefusedNamingBoth() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        let first = try archive.write("apple/march.txt", bytes: Array(world.report.utf8))
        _ = try run(archive, database: archive.database)
        let before = try reconciliation(archive)
        #expect(before.allSatisfy { $0["status"] == "match" }, "\(before)")
        try archive.write("apple/copy-of-march.txt", bytes: Array(world.report.utf8))
        let again = try run(archive, database: archive.database)
        #expect(again.ingest.appleReportsFound == 2 && again.ingest.appleReportsLoaded == 0 && again.ingest.filesAlreadyRead >= 2)
        // Another file whose period overlaps (it starts a week later): refused whole, both files named.
        let other = world.report.replacingOccurrences(of: "Start Date\t03/01/2026", with: "Start Date\t03/08/2026")
            .replacingOccurrences(of: "End Date\t03/28/2026", with: "End Date\t04/04/2026")
        let second = try archive.write("apple/reissued.txt", bytes: Array(other.utf8))
        let refused = try run(archive, database: archive.database)
        #expect(refused.ingest.appleReportQuarantine == ["overlapping_report": 1])
        let message = try #require(refused.ingest.appleReportRefusals.first)
        #expect(message.contains(second) && message.contains(first))
        #expect(try reconciliation(archive) == before, "a refused report changes no figure")
        let status = try Pipeline(configuration: try archive.configuration()).status(quarantineLimit: 10)
        #expect(status.appleReports.count == 1 && status.appleReports[0].firstDay == "2026-03-01")
        #expect(status.quarantineByReason.contains { $0.label == "overlapping_report" && $0.count == 1 })
    }

    @Test func hostileRowsAreQuarantinedAndChangeNoOtherFigure() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let clean = try TestArchive()
        try clean.write("webhook.jsonl", lines: world.archiveLines)
        try clean.write("apple/march.txt", bytes: Array(world.report.utf8))
        _ = try run(clean, database: clean.database)

        let hostile = try TestArchive()
        try hostile.write("webhook.jsonl", lines: world.archiveLines)
        var lines = world.report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("Transaction Date") })
        let good = lines[header + 1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        func variant(_ column: Int, _ value: String) -> String {
            var cells = good
            cells[column] = value
            return cells.joined(separator: "\t")
        }
        lines.insert(contentsOf: [
            variant(8, "1.5"),  // a float quantity
            variant(10, "1000000000000000000000000000000"),  // 10^30 in Extended Partner Share
            variant(12, "abc"),
            String(repeating: "A", count: 20 << 20),  // a line past the 16 MiB limit
        ], at: header + 1)
        let text = "\u{FEFF}" + lines.joined(separator: "\r\n")  // BOM and CRLF
        try hostile.write("apple/march.txt", bytes: Array(text.utf8))
        let summary = try run(hostile, database: hostile.database)
        #expect(summary.ingest.appleReportQuarantine == ["bad_report_row": 4])
        #expect(try reconciliation(hostile) == reconciliation(clean))
        for file in ["reconciliation.csv", "refunds.csv", "consumable_losses.csv"] {
            #expect(try hostile.report("2026-03/\(file)") == clean.report("2026-03/\(file)"))
        }
        let status = try Pipeline(configuration: try hostile.configuration()).status(quarantineLimit: 10, reason: "bad_report_row")
        #expect(status.quarantineSamples.count == 4)
        #expect(status.quarantineSamples.allSatisfy { $0.excerpt.count <= 200 && !$0.message.isEmpty })
    }

    @Test func aFileThatIsNotAReportIsLeftAloneAndOneMissingAColumnIsRefused() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        try archive.write("notes.txt", bytes: Array("Transaction Date\tnotes\nnothing here\n".utf8))
        try archive.write("apple/broken.txt", bytes: Array(world.report.replacingOccurrences(of: "\tSKU\t", with: "\tProduct\t").utf8))
        let summary = try run(archive, database: archive.database)
        #expect(summary.ingest.filesIgnored.count == 1 && summary.ingest.filesIgnored[0].hasSuffix("notes.txt"))
        #expect(summary.ingest.appleReportQuarantine == ["bad_report": 1])
        #expect(summary.ingest.appleReportRefusals.first?.contains("SKU") == true)
        // No report loaded: the file has its header only, and the page says how to get one.
        #expect(try archive.report("2026-03/apple_reconciliation.csv").split(separator: "\n").count == 1)
        #expect(try archive.report("2026-03/report.md").contains("No Apple financial report is loaded"))
    }

    @Test func reportsLoadedBeforeOrAfterTheArchiveAndOnEitherEngineAreTheSame() throws {
        let world = try FinanceWorld(lostIndex: 4)
        var outputs: [String: [String: String]] = [:]
        for kind in StoreKind.allCases {
            for order in ["report first", "archive first", "together"] {
                let archive = try TestArchive()
                let database = try kind.freshDatabase(in: archive.root, "order\(order.filter(\.isLetter))")
                switch order {
                case "report first":
                    try archive.write("apple/march.txt", bytes: Array(world.report.utf8))
                    _ = try run(archive, database: database)
                    try archive.write("webhook.jsonl", lines: world.archiveLines)
                case "archive first":
                    try archive.write("webhook.jsonl", lines: world.archiveLines)
                    _ = try run(archive, database: database)
                    try archive.write("apple/march.txt", bytes: Array(world.report.utf8))
                default:
                    try archive.write("webhook.jsonl", lines: world.archiveLines)
                    try archive.write("apple/march.txt", bytes: Array(world.report.utf8))
                }
                _ = try run(archive, database: database)
                var files: [String: String] = [:]
                for name in ["apple_reconciliation.csv", "report.md", "report.html"] {
                    files[name] = try archive.report("2026-03/" + name)
                }
                files["index.md"] = try archive.report("index.md")
                outputs["\(kind) \(order)"] = files
            }
        }
        let reference = try #require(outputs["sqlite together"])
        #expect(reference["apple_reconciliation.csv"]?.contains("2026-03-06,2026-03-06,archive_short") == true)
        for (name, files) in outputs {
            // The data-quality lines count files and runs, which differ by the order; every figure of Apple's side must not.
            #expect(files["apple_reconciliation.csv"] == reference["apple_reconciliation.csv"], "\(name)")
            let section = { (page: String?) in page?.components(separatedBy: "### Refunds").first?.components(separatedBy: "Against Apple").last }
            #expect(section(files["report.md"]) == section(reference["report.md"]), "\(name)")
        }
    }
}
