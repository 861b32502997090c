import Foundation
import IAPFinanceFiles
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Testing

@testable import IAPFetch

/// Apple's financial reports through a fake App Store Connect API, and a gap they reveal closed by Notification History.
@Suite struct FinanceFetchTests {
    static let vendor = "85012345"

    final class Setup: @unchecked Sendable {
        let archive: TestArchive
        let world: FinanceWorld
        let key: TestAPIKey
        let connectKey: TestAPIKey
        let server: FakeAppStoreServer
        let url: String

        init(_ name: String = #function, world: FinanceWorld, reports: [String: String], raw: [String: [UInt8]] = [:])
            throws
        {
            archive = try TestArchive(name)
            self.world = world
            key = try TestAPIKey(folder: archive.root + "/keys")
            connectKey = try TestAPIKey(
                folder: archive.root + "/connect-keys", keyId: "CONNECT123",
                issuerId: "69a6de7e-0000-47e3-e053-5b8c7c11a4d1")
            var data = world.served
            for (month, text) in reports {
                data.financeReports["\(FinanceFetchTests.vendor)/\(month)"] = Gzip.compress(Array(text.utf8))
            }
            for (month, bytes) in raw { data.financeReports["\(FinanceFetchTests.vendor)/\(month)"] = bytes }
            server = FakeAppStoreServer(
                data: data, key: try key.key(), keyId: key.keyId, issuerId: key.issuerId, bundleId: world.app.bundleId)
            server.acceptConnectKey(try connectKey.key(), keyId: connectKey.keyId, issuerId: connectKey.issuerId)
            url = try server.start()
        }

        deinit { server.stop() }

        /// Options for financial reports only, or with the In-App Purchase key and a history window too.
        func options(database: String, history: (since: Int64, until: Int64)? = nil) -> FetchOptions {
            var options = FetchOptions(
                archive: archive.inputs, database: database, bundleId: world.app.bundleId, issuerId: key.issuerId,
                keyId: key.keyId, privateKeyPath: key.path)
            options.apiURL = url
            options.retry = RetryPolicy(
                maximumAttempts: 3, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(20),
                maximumTotalDelay: .seconds(2))
            options.finance = FinanceFetchOptions(
                issuerId: connectKey.issuerId, keyId: connectKey.keyId, privateKeyPath: connectKey.path,
                vendorNumber: FinanceFetchTests.vendor, apiURL: url)
            if let history {
                options.since = history.since
                options.until = history.until
                options.refundHistoryForAll = false
            } else {
                options.serverAPI = false
            }
            return options
        }

        func run(database: String) throws -> RunSummary {
            try Pipeline(configuration: try archive.configuration(world.app) { $0.databasePath = database }).run()
        }

        func usd() throws -> [String: String] {
            let month = String((world.lostDay ?? world.fiscalMonth.lastDay.isoText).prefix(7))
            let rows = CSVReader.records(try archive.report("\(month)/apple_reconciliation.csv"))
            return try #require(rows.first { $0["currency"] == "USD" })
        }
    }

    /// A fiscal month recent enough for Notification History (Apple keeps 180 days) and already ended.
    static func recentMonth() -> AppleFiscalMonth {
        let today = Int(Date().timeIntervalSince1970 / 86_400)
        return AppleFiscalMonth(containing: ReportDay(daysSinceEpoch: today - 45)!)!
    }

    /// Before: a fetched report that was truncated, garbage or of another month was saved and recorded as fetched,
    /// never asked again. After: it is checked as ingest would read it and for the asked month; a bad answer is not
    /// saved, a warning says so, and the next fetch asks again (and keeps the good answer then).
    @Test(arguments: ["truncated", "garbage", "other month"])
    func aBadFetchedReportIsNotSavedAndIsAskedAgain(_ kind: String) async throws {
        let month = Self.recentMonth()
        let world = try FinanceWorld(month: month.text, lostIndex: nil)
        let whole = Gzip.compress(Array(world.report.utf8))!
        let bad: [UInt8]
        switch kind {
        case "truncated": bad = Array(whole.prefix(whole.count / 2))
        case "garbage": bad = Gzip.compress(Array("<html>Service Unavailable</html>\n".utf8))!
        default:
            let other = try FinanceWorld(month: month.next?.next?.text ?? "2026-03", lostIndex: nil)
            bad = Gzip.compress(Array(other.report.utf8))!
        }
        let setup = try Setup(world: world, reports: [:], raw: [month.text: bad])
        let database = try StoreKind.sqlite.freshDatabase(in: setup.archive.root)
        try setup.archive.write("webhook.jsonl", lines: world.archiveLines)
        _ = try setup.run(database: database)
        let first = try await Fetcher(options: setup.options(database: database)).run()
        #expect(first.financeReportsSaved == 0, "\(kind): \(first)")
        #expect(first.warnings.contains { $0.contains(month.text) && $0.contains("asked again") }, "\(first.warnings)")
        let folder = setup.archive.inputs + "/fetched/finance"
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty ?? true)
        // Apple's answer is whole next time: saved then.
        let good = try Setup(world: world, reports: [month.text: world.report])
        let again = try await Fetcher(options: good.options(database: database)).run()
        #expect(again.financeReportsSaved == 1, "\(kind): \(again)")
    }

    /// Apple's error answer (a wrong vendor number, say) and an answer that is no gzip at all (a captive portal's
    /// page) stop the fetch with a sentence that says what to check; nothing is saved, and the next fetch asks again.
    @Test func anErrorOrANonGzipAnswerStopsTheFetchSayingWhatToCheck() async throws {
        let month = Self.recentMonth()
        let world = try FinanceWorld(month: month.text, lostIndex: nil)
        func failure(_ setup: Setup, database: String) async -> String {
            do {
                let summary = try await Fetcher(options: setup.options(database: database)).run()
                return "no failure: \(summary)"
            } catch {
                return "\(error)"
            }
        }
        let setup = try Setup(world: world, reports: [month.text: world.report])
        let database = try StoreKind.sqlite.freshDatabase(in: setup.archive.root)
        try setup.archive.write("webhook.jsonl", lines: world.archiveLines)
        _ = try setup.run(database: database)
        setup.server.setFaults([1: .status(400)])
        let rejected = await failure(setup, database: database)
        #expect(rejected.contains("(HTTP 400, FAULT): injected. Check --vendor-number"), "\(rejected)")
        let portal = try Setup(world: world, reports: [:], raw: [month.text: Array("<html>Sign in</html>".utf8)])
        let portalDatabase = try StoreKind.sqlite.freshDatabase(in: portal.archive.root)
        try portal.archive.write("webhook.jsonl", lines: world.archiveLines)
        _ = try portal.run(database: portalDatabase)
        let page = await failure(portal, database: portalDatabase)
        #expect(page.contains("the answer is not the gzip report Apple sends"), "\(page)")
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: portal.archive.inputs + "/fetched/finance")) == nil)
        setup.server.setFaults([:])
        let again = try await Fetcher(options: setup.options(database: database)).run()
        #expect(again.financeReportsSaved == 1, "\(again)")
    }

    /// Apple's report names its vendor by name only (`Vendor Name`), never by the number asked for. With
    /// `--vendor-name`, an answer naming another vendor (a wrong `--vendor-number`, something in between) is not
    /// saved and is asked again; the report naming the vendor given is saved. Without it, the name is not checked.
    @Test func aReportNamingAnotherVendorIsNotSavedWhenTheVendorIsNamed() async throws {
        let month = Self.recentMonth()
        let world = try FinanceWorld(month: month.text, lostIndex: nil)
        #expect(world.report.hasPrefix("Vendor Name\tTest Dev\n"))
        let other = world.report.replacingOccurrences(of: "Vendor Name\tTest Dev", with: "Vendor Name\tOther Studio")
        let setup = try Setup(world: world, reports: [month.text: other])
        let database = try StoreKind.sqlite.freshDatabase(in: setup.archive.root)
        try setup.archive.write("webhook.jsonl", lines: world.archiveLines)
        _ = try setup.run(database: database)
        var options = setup.options(database: database)
        options.finance?.vendorName = "Test Dev"
        let refused = try await Fetcher(options: options).run()
        #expect(refused.financeReportsSaved == 0, "\(refused)")
        #expect(
            refused.warnings.contains {
                $0.contains("names vendor \"Other Studio\", not \"Test Dev\" (--vendor-name)")
            },
            "\(refused.warnings)")
        let good = try Setup(world: world, reports: [month.text: world.report])
        var goodOptions = good.options(database: database)
        goodOptions.finance?.vendorName = "Test Dev"
        let saved = try await Fetcher(options: goodOptions).run()
        #expect(saved.financeReportsSaved == 1, "\(saved)")
        // Without --vendor-name the name is not checked: another store takes the other vendor's report.
        let unchecked = try Setup(world: world, reports: [month.text: other])
        let otherDatabase = try StoreKind.sqlite.freshDatabase(in: unchecked.archive.root)
        try unchecked.archive.write("webhook.jsonl", lines: world.archiveLines)
        _ = try unchecked.run(database: otherDatabase)
        let taken = try await Fetcher(options: unchecked.options(database: otherDatabase)).run()
        #expect(taken.financeReportsSaved == 1, "\(taken)")
    }

    @Test(arguments: StoreKind.allCases)
    func theFetchedReportShowsTheGapAndNotificationHistoryClosesIt(_ kind: StoreKind) async throws {
        let month = Self.recentMonth()
        let world = try FinanceWorld(month: month.text, lostIndex: 2)
        let lostDay = try #require(world.lostDay)
        let setup = try Setup(world: world, reports: [month.text: world.report])
        let database = try kind.freshDatabase(in: setup.archive.root)
        try setup.archive.write("webhook.jsonl", lines: world.archiveLines)
        _ = try setup.run(database: database)

        // Financial reports only (no In-App Purchase key): this fiscal month is published, the next one is not.
        let first = try await Fetcher(options: setup.options(database: database)).run()
        #expect(first.financeReportsSaved == 1, "\(first)")
        #expect(first.financeMonthsPending.allSatisfy { $0 == month.next?.text }, "\(first.financeMonthsPending)")
        #expect(setup.server.badTokens.isEmpty, "\(setup.server.badTokens)")
        let saved = setup.archive.inputs + "/fetched/finance/FINANCE_DETAIL_Z1_\(Self.vendor)_\(month.text).txt.gz"
        #expect(FileManager.default.fileExists(atPath: saved))
        _ = try setup.run(database: database)
        var usd = try setup.usd()
        #expect(usd["status"] == "archive_short" && usd["first_gap_day"] == lostDay && usd["last_gap_day"] == lostDay)
        #expect(
            (Int(usd["apple_units_sold"] ?? "") ?? 0) - (Int(usd["archive_units_sold"] ?? "") ?? 0) == world.lostUnits)

        // The command the page gives, run through the fake: Notification History over that Pacific day fills the gap.
        let page = try setup.archive.report(String(lostDay.prefix(7)) + "/report.md")
        let command = try #require(page.components(separatedBy: "`iaplens fetch --since ").dropFirst().first)
        let words = command.split(separator: " ").map(String.init)
        let since = try #require(ISO8601Millis.parse(words[0]))
        let until = try #require(ISO8601Millis.parse(String(words[2].prefix { $0 != "`" })))
        #expect(until - since >= 23 * 3_600_000 && until - since <= 25 * 3_600_000, "one Pacific day")
        let requestsBefore = setup.server.requests.count
        let history = try await Fetcher(options: setup.options(database: database, history: (since, until))).run()
        #expect(history.notificationPages == 1)
        #expect(history.financeReportsAlreadySaved == 1 && history.financeReportsSaved == 0)
        // This month is not asked again; the next one, still unpublished, is (when it has ended).
        let asked = setup.server.requests.dropFirst(requestsBefore).filter { $0.contains("financeReports") }
        #expect(asked.count == first.financeMonthsPending.count, "\(asked)")
        _ = try setup.run(database: database)
        usd = try setup.usd()
        #expect(usd["status"] == "match", "\(usd)")
        #expect(usd["apple_units_sold"] == usd["archive_units_sold"] && usd["first_gap_day"] == "")
    }

    @Test func aMonthApplePassedOverIsRecordedAndNotAskedAgain() async throws {
        let world = try FinanceWorld(lostIndex: nil)
        // March answers 404 (no sales, says Apple) while April is published: March is a month without a report.
        let april = try FinanceWorld(month: "2026-04", lostIndex: nil).report
        let setup = try Setup(world: world, reports: ["2026-04": april])
        let database = setup.archive.root + "/store.sqlite"
        try setup.archive.write("webhook.jsonl", lines: world.archiveLines)
        _ = try setup.run(database: database)
        let first = try await Fetcher(options: setup.options(database: database)).run()
        #expect(
            first.financeReportsSaved == 1 && first.financeMonthsWithoutReport == 1
                && first.financeMonthsPending.isEmpty)
        let before = setup.server.requests.count
        let second = try await Fetcher(options: setup.options(database: database)).run()
        #expect(
            setup.server.requests.count == before, "nothing asked again: \(setup.server.requests.dropFirst(before))")
        #expect(second.financeReportsAlreadySaved == 1 && second.financeMonthsWithoutReport == 1)
    }

    @Test func theConnectTokenIsTheOneAppleDocumentsAndARefusalNamesTheKey() async throws {
        let setup = try Setup(world: try FinanceWorld(lostIndex: nil), reports: [:])
        let (key, _) = try AppStoreConnectKey.load(path: setup.connectKey.path, keyId: "CONNECT123", issuerId: "issuer")
        let token = try key.token(issuedAt: 1_700_000_000, lifetimeSeconds: 3_600)
        let parts = token.split(separator: ".").map(String.init)
        let claims = try JSONParser.parse(Base64Decoding.decode(parts[1], alphabet: .url) ?? [])
        guard case .object(let object) = claims else { throw CocoaError(.coderInvalidValue) }
        #expect(
            object["aud"]?.stringValue == "appstoreconnect-v1" && object["bid"] == nil
                && object["iss"]?.stringValue == "issuer")
        let expiry = object["exp"]?.numberValue?.int64 ?? 0
        #expect(expiry == Int64(1_700_000_000 + 20 * 60), "capped at 20 minutes")

        // The In-App Purchase key is not a Connect key: Apple's 401 names the Connect key to check.
        var options = setup.options(database: setup.archive.root + "/s.sqlite", history: nil)
        options.finance?.privateKeyPath = setup.key.path
        options.since = ISO8601Millis.parse("2026-03-01T00:00:00Z")
        do {
            _ = try await Fetcher(options: options).run()
            Issue.record("a token signed with another key was accepted")
        } catch let error as FetchError {
            #expect(
                error.description.contains("CONNECT123") && error.description.contains("HTTP 401")
                    && error.description.contains("Finance"))
        }
    }
}
