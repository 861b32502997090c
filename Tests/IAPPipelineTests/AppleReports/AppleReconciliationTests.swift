import Foundation
import IAPFormats
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// Apple's financial reports beside the archive (Documentation/Reports.md "apple_reconciliation.csv"), on both engines.
@Suite struct AppleReconciliationTests {
    private func run(_ archive: TestArchive, database: String, reports: String? = nil) throws -> RunSummary {
        try Pipeline(
            configuration: try archive.configuration { configuration in
                configuration.databasePath = database
                if let reports { configuration.reportsDirectory = reports }
            }
        ).run()
    }

    private func reconciliation(_ archive: TestArchive, reports: String? = nil) throws -> [[String: String]] {
        CSVReader.records(
            try String(
                contentsOfFile: (reports ?? archive.reports) + "/2026-03/apple_reconciliation.csv", encoding: .utf8))
    }

    @Test(arguments: StoreKind.allCases)
    func aLostDayIsNamedExactlyAsArchiveShort(_ kind: StoreKind) throws {
        let world = try FinanceWorld(lostIndex: 2)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        try archive.write("apple/FINANCE_DETAIL_Z1_2026-03.txt.gz", bytes: Array(world.report.utf8))
        let database = try kind.freshDatabase(in: archive.root)
        let summary = try run(archive, database: database)
        #expect(
            summary.ingest.appleReportsLoaded == 1 && summary.ingest.appleReportRows > 0,
            "\(summary.ingest.appleReportRefusals)")
        let rows = try reconciliation(archive)
        let usd = try #require(rows.first { $0["currency"] == "USD" })
        #expect(usd["product_id"] == FinanceWorld.coins)
        #expect(usd["status"] == "archive_short")
        #expect(usd["first_gap_day"] == "2026-03-04" && usd["last_gap_day"] == "2026-03-04")
        #expect(usd["days_covered"] == "28")
        let appleSold = Int(usd["apple_units_sold"] ?? "") ?? -1
        let archiveSold = Int(usd["archive_units_sold"] ?? "") ?? -1
        #expect(appleSold - archiveSold == world.lostUnits)
        #expect(
            (Int64(usd["apple_gross_milli"] ?? "") ?? 0) - (Int64(usd["archive_gross_milli"] ?? "") ?? 0)
                == world.lostGrossMilli)
        // The refund on the 5th (late evening Pacific, the 6th in UTC) is on both sides.
        #expect(usd["apple_units_refunded"] == "2" && usd["archive_units_refunded"] == "2")
        #expect(usd["proceeds_currency"] == "USD")
        let jpy = try #require(rows.first { $0["currency"] == "JPY" })
        #expect(
            jpy["status"] == "match" && jpy["first_gap_day"] == ""
                && jpy["apple_units_sold"] == jpy["archive_units_sold"])
        // The page says what to run: Notification History over that Pacific day, as UTC instants.
        let page = try archive.report("2026-03/report.md")
        #expect(page.contains("Against Apple's financial reports"))
        #expect(page.contains("iaplens fetch --since 2026-03-04T08:00:00Z --until 2026-03-05T08:00:00Z"))
    }

    /// Apple's report covers every app of the App Store Connect account, so it books products this app's archive
    /// never holds. Before, the page said only "the archive lacks what Apple booked" and to fetch Notification History,
    /// which recovers nothing of another app. Now it says first that the archive holds nothing of the product on any
    /// covered day and what that means; the file stays as the contract defines it (`archive_short`).
    @Test(arguments: StoreKind.allCases)
    func aProductTheArchiveNeverHoldsIsSaidToBePerhapsAnotherAppsOwn(_ kind: StoreKind) throws {
        let world = try FinanceWorld(lostIndex: nil)
        var lines = world.report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let sale = try #require(lines.firstIndex { $0.contains("\t\(FinanceWorld.coins)\t") && $0.contains("\tUSD\t") })
        lines.insert(
            lines[sale].replacingOccurrences(of: FinanceWorld.coins, with: "com.example.otherapp.pro"), at: sale + 1)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        try archive.write("apple/march.txt", bytes: Array(lines.joined(separator: "\n").utf8))
        let summary = try run(archive, database: try kind.freshDatabase(in: archive.root))
        #expect(summary.ingest.appleReportRefusals.isEmpty, "\(summary.ingest.appleReportRefusals)")
        let other = try #require(try reconciliation(archive).first { $0["product_id"] == "com.example.otherapp.pro" })
        #expect(other["status"] == "archive_short" && other["archive_units_sold"] == "0")
        let page = try archive.report("2026-03/report.md")
        let item = try #require(
            page.split(separator: "\n").first { $0.contains("com.example.otherapp.pro") && $0.hasPrefix("- ") })
        #expect(item.contains("holds no sale or refund of this product on any day Apple's reports cover"), "\(item)")
        #expect(item.contains("If it is this app's, the archive lacks what Apple booked on"), "\(item)")
        // Apple's proceeds beside the estimate name the part the estimate cannot hold.
        #expect(page.contains("is of products the archive holds nothing of (above: perhaps another app's)."), "\(page)")
        // The app's own product is not said to be another app's.
        #expect(
            !page.split(separator: "\n").contains {
                $0.contains(FinanceWorld.coins) && $0.contains("another app's product, nothing")
            })
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
        #expect(
            again.ingest.appleReportsFound == 2 && again.ingest.appleReportsLoaded == 0
                && again.ingest.filesAlreadyRead >= 2)
        // Another file for the same fiscal month (a reissue, other bytes): refused whole, both files named. (A period
        // that only partly overlaps is not one of Apple's fiscal months, and is refused as such.)
        let other = world.report.replacingOccurrences(of: "Vendor Name\tTest Dev", with: "Vendor Name\tTest Dev Ltd")
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

    /// Apple's books are believed only whole. Before: each bad row was quarantined alone and the rest of the file
    /// loaded, marking its whole period covered. After: one bad row refuses the file, nothing of it is loaded, no day
    /// is covered; the corrected file then loads.
    @Test(arguments: [
        ("a float quantity", 8, "1.5"),
        ("10^30 in Extended Partner Share", 10, "1000000000000000000000000000000"),
        ("a Customer Price that is not a number", 12, "abc"),
        ("a thousands group of two digits", 9, "1,99"),
        ("an empty thousands group", 9, "1,,9,9"),
        ("Extended Partner Share that is not Partner Share × Quantity", 10, "999999.99"),
        ("a sale with a negative quantity", 8, "-5"),
    ])
    func aReportWithABadRowIsRefusedWholeAndTheCorrectedOneLoads(what: String, column: Int, value: String) throws {
        let world = try FinanceWorld(lostIndex: nil)
        let clean = try TestArchive()
        try clean.write("webhook.jsonl", lines: world.archiveLines)
        try clean.write("apple/march.txt", bytes: Array(world.report.utf8))
        _ = try run(clean, database: clean.database)

        let hostile = try TestArchive()
        try hostile.write("webhook.jsonl", lines: world.archiveLines)
        var lines = world.report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("Transaction Date") })
        var cells = lines[header + 1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        cells[column] = value
        // The bad row in the middle of the file, after good rows.
        lines.insert(cells.joined(separator: "\t"), at: min(header + 3, lines.count - 1))
        let text = "\u{FEFF}" + lines.joined(separator: "\r\n")  // BOM and CRLF
        try hostile.write("apple/march.txt", bytes: Array(text.utf8))
        let summary = try run(hostile, database: hostile.database)
        #expect(summary.ingest.appleReportQuarantine == ["bad_report": 1], "\(what)")
        #expect(summary.ingest.appleReportRows == 0, "\(what)")
        #expect(try reconciliation(hostile).isEmpty, "\(what): no day is covered by a refused report")
        for file in ["reconciliation.csv", "refunds.csv", "consumable_losses.csv"] {
            #expect(try hostile.report("2026-03/\(file)") == clean.report("2026-03/\(file)"))
        }
        let status = try Pipeline(configuration: try hostile.configuration()).status(
            quarantineLimit: 10, reason: "bad_report")
        #expect(status.quarantineSamples.count == 1)
        #expect(
            status.quarantineSamples.first?.message.contains("line \(min(header + 3, lines.count - 1) + 1)") == true,
            "\(status.quarantineSamples)")
        // The corrected download loads.
        try hostile.write("apple/march-again.txt", bytes: Array(world.report.utf8))
        _ = try run(hostile, database: hostile.database)
        #expect(try reconciliation(hostile) == reconciliation(clean), "\(what)")
    }

    @Test func aTruncatedGzipReportIsRefusedWhole() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        let whole = Gzip.compress(Array(world.report.utf8))!
        try archive.write("apple/march.txt.gz", bytes: Array(whole.prefix(whole.count * 2 / 3)), compress: false)
        let summary = try run(archive, database: archive.database)
        #expect(summary.ingest.appleReportQuarantine == ["bad_report": 1])
        #expect(summary.ingest.appleReportRows == 0)
        #expect(try reconciliation(archive).isEmpty)
    }

    @Test(arguments: [
        ("a period that is not a fiscal month", "Start Date\t01/01/2008\nEnd Date\t12/31/2099"),
        ("a period a week off Apple's calendar", "Start Date\t03/08/2026\nEnd Date\t04/04/2026"),
    ])
    func aReportWhosePeriodIsNotAFiscalMonthIsRefusedAndBlocksNothing(what: String, period: String) throws {
        let world = try FinanceWorld(lostIndex: nil)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        let bogus = world.report.replacingOccurrences(of: "Start Date\t03/01/2026\nEnd Date\t03/28/2026", with: period)
        #expect(bogus != world.report)
        try archive.write("apple/bogus.txt", bytes: Array(bogus.utf8))
        let refused = try run(archive, database: archive.database)
        #expect(refused.ingest.appleReportQuarantine == ["bad_report": 1], "\(what)")
        #expect(refused.ingest.appleReportRefusals.first?.contains("fiscal month") == true)
        try archive.write("apple/march.txt", bytes: Array(world.report.utf8))
        let loaded = try run(archive, database: archive.database)
        #expect(loaded.ingest.appleReportsLoaded == 1, "\(what): the genuine report is not blocked")
    }

    @Test func aSummaryLikeLineFollowedByMoreRowsRefusesTheFile() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        var lines = world.report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("Transaction Date") })
        lines.insert("Country Of Sale\tPartner Share Currency\tQuantity\tExtended Partner Share", at: header + 2)
        try archive.write("apple/march.txt", bytes: Array(lines.joined(separator: "\n").utf8))
        let summary = try run(archive, database: archive.database)
        #expect(summary.ingest.appleReportQuarantine == ["bad_report": 1])
        #expect(summary.ingest.appleReportRefusals.first?.contains("after the trailing summary block") == true)
    }

    @Test func aUTF16ReportIsRefusedByName() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in world.report.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let path = try archive.write("apple/march-utf16.txt", bytes: bytes)
        let summary = try run(archive, database: archive.database)
        #expect(summary.ingest.appleReportQuarantine == ["bad_report": 1])
        #expect(summary.ingest.appleReportRefusals.first?.contains(path) == true)
        #expect(summary.ingest.appleReportRefusals.first?.contains("UTF-16") == true)
    }

    @Test func aFileThatIsNotAReportIsLeftAloneAndOneMissingAColumnIsRefused() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        try archive.write("notes.txt", bytes: Array("Transaction Date\tnotes\nnothing here\n".utf8))
        try archive.write(
            "apple/broken.txt", bytes: Array(world.report.replacingOccurrences(of: "\tSKU\t", with: "\tProduct\t").utf8)
        )
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
            let section = { (page: String?) in
                page?.components(separatedBy: "### Refunds").first?.components(separatedBy: "Against Apple").last
            }
            #expect(section(files["report.md"]) == section(reference["report.md"]), "\(name)")
        }
    }
}
