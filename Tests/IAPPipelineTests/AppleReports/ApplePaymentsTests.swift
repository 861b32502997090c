import Foundation
import IAPPipeline
import IAPReports
import IAPStore
import IAPTestSupport
import Testing

/// Apple's payment summaries tied to Apple's books (Documentation/Reports.md "apple_payments.csv"), on both engines.
@Suite struct ApplePaymentsTests {
    /// The March 2026 summary: Americas as Apple's books have it, a Euro-Zone row the books lack, the United Kingdom
    /// held with a balance carried from February, and no Japan row (the books have one).
    static func march(usdUnits: Int, usdEarned: String, pending: Bool = false) -> String {
        let rate = pending ? "" : ",\"Exchange Rate\",\"Proceeds\""
        let paid = pending ? "" : ",\"1.00000\",\"\(usdEarned)\""
        let euro = pending ? "" : ",\"1.08231\",\"1,512.62\""
        let held = pending ? "" : ",,"
        return """
            "App Store Connect - Payments and Financial Reports (March 2026)",,,,,,,,,,,
            ,,,,,,,,,,,
            "Region (Currency)","Units Sold","Beginning Balance","Earned","Pre-Tax Subtotal","Input Tax","Adjustments","Withholding Tax","Total Owed"\(rate),"Bank Account Currency"
            "Americas (USD)","\(usdUnits)","0.00","\(usdEarned)","\(usdEarned)","0.00","0.00","0.00","\(usdEarned)"\(paid),"USD"
            "Euro-Zone (EUR)","388","0.00","1,401.08","1,401.08","0.00","-3.50","0.00","1,397.58"\(euro),"USD"
            ,,,,,,,,,,,
            "United Kingdom (GBP)","3","8.35","4.10","12.45","0.00","0.00","0.00","12.45"\(held),"USD"

            """
    }

    static let february = """
        "App Store Connect - Payments and Financial Reports (February 2026)",,,,,,,,,,
        "Region (Currency)","Units Sold","Earned","Pre-Tax Subtotal","Input Tax","Adjustments","Withholding Tax","Total Owed","Exchange Rate","Proceeds","Bank Account Currency"
        ,,,,,,,,,,
        "United Kingdom (GBP)","2","8.35","8.35","0.00","0.00","0.00","8.35",,,"USD"

        """

    /// Apple's books of the world's report: S units and Σ Extended Partner Share per region and currency.
    static func books(_ report: String) throws -> [String: (units: Int, earnedMilli: Int64)] {
        var books: [String: (units: Int, earnedMilli: Int64)] = [:]
        let lines = report.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        guard let header = lines.firstIndex(where: { $0.first == "Transaction Date" }) else { return [:] }
        let names = lines[header]
        func at(_ row: [String], _ name: String) throws -> String { row[try #require(names.firstIndex(of: name))] }
        for row in lines[(header + 1)...] where row.count == names.count {
            let key = try at(row, "Region") + "," + at(row, "Partner Share Currency")
            var book = books[key] ?? (0, 0)
            if try at(row, "Sale or Return") == "S" { book.units += try #require(Int(at(row, "Quantity"))) }
            let share = try at(row, "Extended Partner Share")
            // Amounts have two decimals, or none (JPY).
            let milli =
                share.contains(".")
                ? try #require(Int64(share.replacingOccurrences(of: ".", with: ""))) * 10
                : try #require(Int64(share)) * 1_000
            book.earnedMilli += milli
            books[key] = book
        }
        return books
    }

    private func run(_ archive: TestArchive, database: String) throws -> RunSummary {
        try Pipeline(configuration: try archive.configuration { $0.databasePath = database }).run()
    }

    private func payments(_ archive: TestArchive) throws -> String { try archive.report("2026-03/apple_payments.csv") }

    @Test(arguments: StoreKind.allCases)
    func theFiscalMonthClosesAgainstThePayment(engine: StoreKind) throws {
        let world = try FinanceWorld(lostIndex: nil)
        let books = try Self.books(world.report)
        let usd = try #require(books["Americas,USD"])
        let jpy = try #require(books["Japan,JPY"])
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        try archive.write("apple/march.txt", bytes: Array(world.report.utf8))
        let earned = FinanceWorldText.amount(usd.earnedMilli)
        try archive.write(
            "apple/financial_report.csv", bytes: Array(Self.march(usdUnits: usd.units, usdEarned: earned).utf8))
        _ = try run(archive, database: try engine.freshDatabase(in: archive.root))
        let header =
            "fiscal_month,region,currency,period_start,period_end,apple_units_sold,payment_units_sold,apple_earned_milli,payment_earned_milli,beginning_balance_milli,input_tax_milli,adjustments_milli,withholding_tax_milli,total_owed_milli,exchange_rate,proceeds_milli,bank_currency,status"
        #expect(
            try payments(archive) == """
                \(header)
                2026-03,Americas,USD,2026-03-01,2026-03-28,\(usd.units),\(usd.units),\(usd.earnedMilli),\(usd.earnedMilli),0,0,0,0,\(usd.earnedMilli),1.00000,\(usd.earnedMilli),USD,paid
                2026-03,Euro-Zone,EUR,2026-03-01,2026-03-28,0,388,0,1401080,0,0,-3500,0,1397580,1.08231,1512620,USD,differs
                2026-03,Japan,JPY,2026-03-01,2026-03-28,\(jpy.units),,\(jpy.earnedMilli),,,,,,,,,,no_payment
                2026-03,United Kingdom,GBP,2026-03-01,2026-03-28,0,3,0,4100,8350,0,0,0,12450,,,USD,held

                """)
        let page = try archive.report("2026-03/report.md")
        #expect(page.contains("Apple's payment"), "the finance section shows the tie-out")
    }

    /// A pending summary is replaced by the paid one of its month, whatever order they arrive in and however many
    /// runs they are split over: the reports come out the same, byte for byte, on both engines.
    @Test func thePaidSummaryReplacesThePendingOneInAnyOrder() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let usd = try #require(try Self.books(world.report)["Americas,USD"])
        let earned = FinanceWorldText.amount(usd.earnedMilli)
        let paid = Array(Self.march(usdUnits: usd.units, usdEarned: earned).utf8)
        let pending = Array(Self.march(usdUnits: usd.units - 1, usdEarned: earned, pending: true).utf8)
        var results: [String] = []
        for engine in StoreKind.allCases {
            for order in [["pending", "paid"], ["paid", "pending"], ["both"]] {
                let archive = try TestArchive()
                let database = try engine.freshDatabase(in: archive.root)
                try archive.write("webhook.jsonl", lines: world.archiveLines)
                try archive.write("apple/march.txt", bytes: Array(world.report.utf8))
                try archive.write("apple/february.csv", bytes: Array(Self.february.utf8))
                for step in order {
                    if step != "paid" { try archive.write("apple/march-pending.csv", bytes: pending) }
                    if step != "pending" { try archive.write("apple/march-paid.csv.gz", bytes: paid) }
                    let summary = try run(archive, database: database)
                    if order == ["paid", "pending"], step == "pending" {
                        #expect(summary.ingest.appleReportRefusals.first?.contains("march-paid.csv.gz") == true)
                    }
                }
                results.append(try payments(archive))
            }
        }
        #expect(Set(results).count == 1, "\(results)")
        #expect(results.first?.contains(",paid\n") == true && !(results.first?.contains("pending") ?? true))
    }
}

extension ApplePaymentsTests {
    /// A region held in February (below Apple's threshold) comes back as March's Beginning Balance and is paid then.
    @Test func aHeldRegionIsCarriedIntoTheNextMonthsPayment() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        try archive.write("apple/march.txt", bytes: Array(world.report.utf8))
        try archive.write("apple/february.csv", bytes: Array(Self.february.utf8))
        let march = """
            "App Store Connect - Payments and Financial Reports (March 2026)",,,,,,,,,,,
            "Region (Currency)","Units Sold","Beginning Balance","Earned","Pre-Tax Subtotal","Input Tax","Adjustments","Withholding Tax","Total Owed","Exchange Rate","Proceeds","Bank Account Currency"
            "United Kingdom (GBP)","5","8.35","51.10","59.45","0.00","0.00","0.00","59.45","1.26410","75.15","USD"

            """
        try archive.write("apple/march.csv", bytes: Array(march.utf8))
        _ = try run(archive, database: archive.database)
        let store = try StoreLocation(archive.database).open()
        let rows = try store.read { connection in
            try connection.rows(
                "SELECT fiscal_month, beginning_balance_milli, total_owed_milli, coalesce(proceeds_milli, -1), status FROM apple_payments WHERE region = 'United Kingdom' ORDER BY fiscal_month"
            ).map {
                $0.values.map { value -> String in
                    if case .integer(let number) = value { return String(number) }
                    if case .text(let text) = value { return text }
                    return ""
                }
            }
        }
        #expect(
            rows == [["2026-02", "0", "8350", "-1", "held"], ["2026-03", "8350", "59450", "75150", "differs"]],
            "\(rows)")
        // March's page names the balance brought forward and the deposit.
        let page = try archive.report("2026-03/report.md")
        #expect(page.contains("| United Kingdom (GBP) | differs |") && page.contains("8.35 GBP"), "\(page)")
        #expect(page.contains("**Deposit**: 75.15 USD"))
    }

    /// A summary downloaded before Apple paid the month has no rate and no proceeds, and every row of it is pending,
    /// the rows after its blank row too: what Apple holds below its threshold is decided when it pays. Before, those
    /// rows read `held`, as if Apple had already decided.
    @Test(arguments: StoreKind.allCases)
    func everyRowOfAPendingSummaryIsPending(engine: StoreKind) throws {
        let world = try FinanceWorld(lostIndex: nil)
        let usd = try #require(try Self.books(world.report)["Americas,USD"])
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        try archive.write("apple/march.txt", bytes: Array(world.report.utf8))
        let pending = Self.march(
            usdUnits: usd.units, usdEarned: FinanceWorldText.amount(usd.earnedMilli), pending: true)
        try archive.write("apple/financial_report.csv", bytes: Array(pending.utf8))
        _ = try run(archive, database: try engine.freshDatabase(in: archive.root))
        let statuses = try payments(archive).split(separator: "\n").dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            return "\(cells[1]) \(cells.last!)"
        }
        #expect(
            statuses == ["Americas pending", "Euro-Zone pending", "Japan no_payment", "United Kingdom pending"],
            "\(statuses)")
    }

    /// Apple serves its files gzip-compressed and a person often keeps both the download and its unpacked copy (or
    /// one saved with Windows line endings). Before: the second file of the same report or summary was refused as
    /// overlapping, with a warning and a quarantined file. Now it is counted as already read, said in one line,
    /// nothing quarantined and nothing loaded twice, whichever copy comes first, on both engines. A copy that
    /// differs in one row is still refused.
    @Test(arguments: StoreKind.allCases)
    func aGzipFileAndItsUnpackedCopyAreOneReport(engine: StoreKind) throws {
        let world = try FinanceWorld(lostIndex: nil)
        let usd = try #require(try Self.books(world.report)["Americas,USD"])
        let summary = Self.march(usdUnits: usd.units, usdEarned: FinanceWorldText.amount(usd.earnedMilli))
        func archive(copies: Bool) throws -> (TestArchive, String, RunSummary) {
            let archive = try TestArchive()
            try archive.write("webhook.jsonl", lines: world.archiveLines)
            try archive.write("apple/b-march.txt", bytes: Array(world.report.utf8))
            try archive.write("apple/b-financial_report.csv", bytes: Array(summary.utf8))
            if copies {
                try archive.write("apple/a-march.txt.gz", bytes: Array(world.report.utf8))
                try archive.write(
                    "apple/c-financial_report.csv",
                    bytes: Array(summary.replacingOccurrences(of: "\n", with: "\r\n").utf8))
            }
            let database = try engine.freshDatabase(in: archive.root, "copies\(copies)")
            return (archive, database, try run(archive, database: database))
        }
        let (alone, _, _) = try archive(copies: false)
        let (doubled, database, first) = try archive(copies: true)
        #expect(
            first.ingest.appleReportRefusals.isEmpty && first.ingest.appleReportQuarantine.isEmpty,
            "\(first.ingest.appleReportRefusals)")
        #expect(first.ingest.appleReportsLoaded == 1 && first.ingest.applePaymentSummariesLoaded == 1)
        #expect(
            first.ingest.appleFileCopies.count == 2 && first.ingest.filesAlreadyRead == 2,
            "\(first.ingest.appleFileCopies)")
        #expect(
            first.ingest.appleFileCopies.contains {
                $0.contains("b-march.txt holds the same financial report as") && $0.contains("a-march.txt.gz")
            })
        #expect(
            first.ingest.appleFileCopies.contains {
                $0.contains("c-financial_report.csv holds the same payment summary as")
            })
        for file in ["2026-03/apple_payments.csv", "2026-03/apple_reconciliation.csv", "2026-03/reconciliation.csv"] {
            #expect(try doubled.report(file) == alone.report(file), "\(file)")
        }
        // The page differs only in the count of files read.
        func page(_ archive: TestArchive) throws -> [Substring] {
            try archive.report("2026-03/report.md").split(separator: "\n").filter { !$0.hasPrefix("| Files read |") }
        }
        #expect(try page(doubled) == page(alone))
        // Seen again, every copy is skipped by its hash.
        let again = try run(doubled, database: database)
        #expect(again.ingest.filesRead == 0 && again.ingest.appleFileCopies.isEmpty)
        // One row different is another report: refused as before, both files named.
        let edited = summary.replacingOccurrences(of: "\"388\"", with: "\"389\"")
        let other = try doubled.write("apple/d-financial_report.csv", bytes: Array(edited.utf8))
        let refused = try run(doubled, database: database)
        #expect(refused.ingest.appleReportQuarantine == ["overlapping_report": 1])
        #expect(refused.ingest.appleReportRefusals.first?.contains(other) == true)
    }

    /// A run says how many payment summaries it found and loaded, even when it reads no other Apple file, and the
    /// store's status names each summary's fiscal month, whether it is paid or pending, and its file.
    @Test func theRunAndTheStatusAccountForEverySummary() throws {
        let archive = try TestArchive()
        try archive.write("apple/february.csv", bytes: Array(Self.february.utf8))
        try archive.write(
            "apple/march.csv", bytes: Array(Self.march(usdUnits: 1, usdEarned: "1.00", pending: true).utf8))
        try archive.write(
            "apple/broken.csv", bytes: Array(Self.february.replacingOccurrences(of: "8.35", with: "8,35").utf8))
        let summary = try run(archive, database: archive.database).ingest
        #expect(summary.applePaymentSummariesFound == 3 && summary.applePaymentSummariesLoaded == 2)
        #expect(summary.appleReportsFound == 0)
        #expect(summary.appleReportRefusals.count == 1 && summary.appleReportRefusals[0].contains("broken.csv"))
        let status = try Pipeline(configuration: try archive.configuration { $0.databasePath = archive.database })
            .status(quarantineLimit: 0, reason: nil)
        #expect(
            status.applePaymentSummaries.map { "\($0.fiscalMonth) \($0.isPending) \($0.rows)" } == [
                "2026-02 false 1", "2026-03 true 3",
            ],
            "\(status.applePaymentSummaries)")
        #expect(
            status.applePaymentSummaries.map { URL(fileURLWithPath: $0.path).lastPathComponent } == [
                "february.csv", "march.csv",
            ])
    }
}

/// Amounts as Apple's files print them (two decimals, thousands separators).
enum FinanceWorldText {
    static func amount(_ milli: Int64) -> String {
        let cents = milli / 10
        var whole = String(cents / 100)
        var groups: [String] = []
        while whole.count > 3 {
            groups.insert(String(whole.suffix(3)), at: 0)
            whole = String(whole.dropLast(3))
        }
        groups.insert(whole, at: 0)
        return groups.joined(separator: ",") + "." + (cents % 100 < 10 ? "0" : "") + String(cents % 100)
    }
}

/// `--reporting-currency` (Documentation/Reports.md "apple_payments.csv"): the month's money in one currency, each day
/// at its fiscal month's paid rate, with the rates named; a currency without a paid rate named and left out.
@Suite struct ReportingCurrencyTests {
    static let summary = """
        "App Store Connect - Payments and Financial Reports (March 2026)",,,,,,,,,,
        "Region (Currency)","Units Sold","Earned","Pre-Tax Subtotal","Input Tax","Adjustments","Withholding Tax","Total Owed","Exchange Rate","Proceeds","Bank Account Currency"
        "Japan (JPY)","1","100","100","0","0","0","100","0.006712","0.67","USD"

        """

    @discardableResult
    private func run(_ archive: TestArchive, reporting: String? = nil) throws -> RunSummary {
        try Pipeline(
            configuration: try archive.configuration {
                $0.databasePath = archive.database
                $0.reportingCurrency = reporting
            }
        ).run()
    }

    @Test func theMonthIsShownInTheBankCurrencyAtThePaidRate() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        try archive.write("apple/march.txt", bytes: Array(world.report.utf8))
        try archive.write("apple/financial_report.csv", bytes: Array(Self.summary.utf8))
        try run(archive)
        let rows = CSVReader.records(try archive.report("2026-03/reconciliation.csv"))
        let gross = { (currency: String) in
            rows.filter { $0["currency"] == currency }.reduce(Int64(0)) { $0 + Int64($1["gross_milli"]!)! }
        }
        // Every sale of the world is in March's fiscal month: JPY at 0.006712, rounded half up to a milliunit per day.
        let page = try archive.report("2026-03/report.md")
        #expect(page.contains("**In USD**: gross"), "\(page)")
        #expect(page.contains("JPY 0.006712 (fiscal 2026-03)"))
        let expectedFloor = gross("USD") + gross("JPY") * 6_712 / 1_000_000 - 10
        let shown = try #require(
            page.components(separatedBy: "**In USD**: gross ").dropFirst().first?.split(separator: " ").first)
        let shownMilli = Int64((Double(shown) ?? 0) * 1_000)
        #expect(
            shownMilli >= expectedFloor && shownMilli <= expectedFloor + 20,
            "\(shown) against \(gross("USD")) USD + \(gross("JPY")) JPY")
    }

    /// Another reporting currency than the bank's goes through the bank's: the page names both rates each amount
    /// used and says what they are into (before: only the amount's own rate into USD, so "GBP 1.26410" read as a rate
    /// into EUR, and the EUR rate that divided went unnamed).
    @Test func anotherReportingCurrencyNamesTheRateItDividesBy() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        try archive.write("apple/march.txt", bytes: Array(world.report.utf8))
        let euro = #""Euro-Zone (EUR)","0","0.00","0.00","0.00","0.00","0.00","0.00","1.25000","0.00","USD""# + "\n"
        try archive.write("apple/financial_report.csv", bytes: Array((Self.summary + euro).utf8))
        try run(archive, reporting: "EUR")
        let rows = CSVReader.records(try archive.report("2026-03/reconciliation.csv"))
        let gross = { (currency: String) in
            rows.filter { $0["currency"] == currency }.reduce(Int64(0)) { $0 + (Int64($1["gross_milli"] ?? "") ?? 0) }
        }
        let page = try archive.report("2026-03/report.md")
        let line = try #require(page.split(separator: "\n").first { $0.hasPrefix("**In EUR**: gross") }, "\(page)")
        #expect(line.contains("Rates used: EUR 1.25000 (fiscal 2026-03); JPY 0.006712 (fiscal 2026-03)."), "\(line)")
        #expect(line.contains("Apple's rates are into USD, the bank's currency"), "\(line)")
        // USD at 1 ÷ 1.25 and JPY at 0.006712 ÷ 1.25, each day rounded to a milliunit.
        let expected = (gross("USD") + gross("JPY") * 6_712 / 1_000_000) * 4 / 5
        let shown = try #require(
            line.components(separatedBy: "**In EUR**: gross ").dropFirst().first?.split(separator: " ").first)
        let shownMilli = Int64((Double(shown.replacingOccurrences(of: ",", with: "")) ?? 0) * 1_000)
        #expect(abs(shownMilli - expected) <= 20, "\(shown) against \(gross("USD")) USD + \(gross("JPY")) JPY")
    }

    @Test func aCurrencyWithoutAPaidRateIsNamedNotAdded() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        try archive.write("apple/march.txt", bytes: Array(world.report.utf8))
        try archive.write("apple/financial_report.csv", bytes: Array(Self.summary.utf8))
        let summary = try run(archive, reporting: "EUR")
        let page = try archive.report("2026-03/report.md")
        // Nothing converts into EUR: the page names what stays unconverted, with no sums of nothing ("gross 0.00 EUR",
        // as it read before), and the run and the pages say why.
        #expect(
            page.contains("**In EUR**: nothing converts, for want of a paid rate: JPY, USD.")
                || page.contains("**In EUR**: nothing converts, for want of a paid rate: USD."), "\(page)")
        #expect(!page.contains("0.00 EUR"), "\(page)")
        let warning =
            "--reporting-currency EUR converts nothing: Apple's paid payment summaries pay in USD and give "
            + "rates into it for JPY only, so every figure stays in its own currency; choose one of USD, JPY."
        #expect(summary.reports.warnings == [warning])
        #expect(page.contains(warning))
        for reachable in ["USD", "JPY"] {
            #expect(try run(archive, reporting: reachable).reports.warnings == [], "\(reachable)")
        }
    }

    /// Asked for, a reporting currency with no paid summary loaded says why nothing is converted.
    @Test func aReportingCurrencyWithoutAnySummarySaysWhy() throws {
        let world = try FinanceWorld(lostIndex: nil)
        let archive = try TestArchive()
        try archive.write("webhook.jsonl", lines: world.archiveLines)
        #expect(try run(archive).reports.warnings == [])
        let warnings = try run(archive, reporting: "USD").reports.warnings
        #expect(
            warnings.count == 1
                && warnings[0].hasPrefix("--reporting-currency USD converts nothing: no paid payment summary is loaded")
        )
    }
}
