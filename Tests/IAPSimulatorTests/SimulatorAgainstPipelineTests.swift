import Foundation
import IAPPipeline
import IAPSimulator
import IAPTestSupport
import Testing

/// What the simulator says it injected must be what iaplens finds: `status` and the reports are checked
/// against `expectations.json`. Runs the real pipeline, verification on, on a small archive.
@Suite struct SimulatorAgainstPipelineTests {
    struct Outcome {
        let manifest: SimulationManifest
        let status: StoreStatus
        let reports: String
    }

    static func simulateAndRun() throws -> Outcome {
        let root = NSTemporaryDirectory() + "iaplens-sim-e2e-\(UUID().uuidString.prefix(8))"
        var options = SimulationOptions()
        options.seed = 7
        options.subscribers = 40
        options.consumableBuyers = 30
        options.refundRings = 3
        options.months = 8
        options.startMonth = "2024-03"
        let archive = root + "/archive"
        let manifest = try Simulator(options: options).run(into: archive)
        var configuration = PipelineConfiguration()
        configuration.inputs = ["notifications", "history", "refunds", "orders"].map { archive + "/" + $0 }
        configuration.databasePath = root + "/store.sqlite"
        configuration.reportsDirectory = root + "/reports"
        configuration.bundleId = manifest.bundleId
        configuration.appAppleId = manifest.appAppleId
        configuration.rootCertificates = [archive + "/" + manifest.rootCertificate]
        configuration.productsPath = archive + "/products.csv"
        configuration.accountsPath = archive + "/accounts.csv"
        let pipeline = Pipeline(configuration: configuration)
        _ = try pipeline.run()
        return Outcome(manifest: manifest, status: try pipeline.status(), reports: configuration.reportsDirectory)
    }

    static let outcome = Result { try simulateAndRun() }

    func count(_ counts: [StoreStatus.Count], _ label: String) -> Int {
        counts.first { $0.label == label }?.count ?? 0
    }

    func csv(_ month: String, _ name: String) throws -> [[String: String]] {
        let path = try Self.outcome.get().reports + "/\(month)/\(name)"
        return CSVReader.records(try String(contentsOfFile: path, encoding: .utf8))
    }

    @Test func noiseLandsWhereTheSimulatorSaysItShould() throws {
        let (manifest, status) = (try Self.outcome.get().manifest, try Self.outcome.get().status)
        let quarantine = status.quarantineByReason
        #expect(count(quarantine, "bad_json") == manifest.brokenLines.values.reduce(0, +))
        #expect(count(quarantine, "bad_signature") == manifest.forged["alteredPayload", default: 0])
        #expect(count(quarantine, "untrusted_chain") == manifest.forged["untrustedChain", default: 0])
        #expect(count(quarantine, "wrong_app") == manifest.otherAppDocuments)
        #expect(count(status.documentsByOutcome, "other_environment") == manifest.sandboxDocuments)
        #expect(count(status.documentsByOutcome, "test_notification") == manifest.testNotifications)
        #expect(status.duplicates == manifest.duplicates.values.reduce(0, +))
        #expect(status.unverifiedDocuments == 0)
    }

    @Test func refundsMatchIncludingThoseOnlyTheLookupsKnow() throws {
        let manifest = try Self.outcome.get().manifest
        var byMonth: [String: Int] = [:]
        var lookupsOnly = 0
        var fromNotifications = 0
        for month in try reportMonths() {
            for row in try csv(month, "refunds.csv") {
                byMonth[month, default: 0] += Int(row["refunds"] ?? "") ?? 0
                lookupsOnly += Int(row["from_lookups_only"] ?? "") ?? 0
                fromNotifications += Int(row["from_notifications"] ?? "") ?? 0
            }
        }
        #expect(byMonth.filter { $0.value > 0 } == manifest.refunds.byMonth)
        #expect(byMonth.values.reduce(0, +) == manifest.refunds.total)
        #expect(lookupsOnly == manifest.refunds.lookupsOnly)
        #expect(fromNotifications == manifest.refunds.fromNotifications)
        #expect(manifest.refunds.lookupsOnly > 0)
    }

    @Test func theFlagCandidatesAreFlagged() throws {
        let manifest = try Self.outcome.get().manifest
        let last = try #require(try reportMonths().last)
        let flagged = Set(try csv(last, "flagged_accounts.csv").compactMap { $0["account_id"] })
        #expect(!manifest.flaggedAccounts.isEmpty)
        #expect(flagged == Set(manifest.flaggedAccounts))
    }

    @Test func everyReportFileHasNonTrivialFigures() throws {
        var rows: [String: Int] = [:]
        for month in try reportMonths() {
            for name in [
                "churn.csv", "expiration_intents.csv", "billing_retry.csv", "refunds.csv", "consumable_losses.csv",
                "flagged_accounts.csv", "reconciliation.csv", "order_lookups.csv",
            ] {
                rows[name, default: 0] += try csv(month, name).count
            }
        }
        for (name, count) in rows { #expect(count > 0, "\(name) has no rows in any month") }
    }

    func reportMonths() throws -> [String] {
        let directory = try Self.outcome.get().reports
        return try FileManager.default.contentsOfDirectory(atPath: directory).filter {
            $0.count == 7 && $0.contains("-")
        }.sorted()
    }
}

/// Documentation/Reports.md "Months written": an archive whose first notification is in month K reports from K on.
/// Before: the simulated app of 8 months from 2024-03 wrote folders from years earlier (rebuilt from V1 receipts'
/// history, churn 0 % and a base that only grew). After: 2024-03 is the first folder, the first row of
/// `months.csv`, and a `--month` before it is refused naming it.
@Suite struct ObservedMonthsTests {
    @Test func theArchivesFirstMonthIsTheFirstReportedAndNothingBeforeIt() throws {
        let outcome = try SimulatorAgainstPipelineTests.outcome.get()
        let folders = try FileManager.default.contentsOfDirectory(atPath: outcome.reports)
            .filter { $0.count == 7 && $0.hasPrefix("20") }.sorted()
        #expect(folders.first == "2024-03" && folders.count == 8, "\(folders)")
        let months = CSVReader.records(try String(contentsOfFile: outcome.reports + "/months.csv", encoding: .utf8))
        #expect(months.map { $0["month"] ?? "" } == folders)
        #expect(months.first?["first_archive_day"]?.hasPrefix("2024-03") == true)
        #expect(months.allSatisfy { Int($0["archive_days"] ?? "") ?? 0 > 0 })
        let index = try String(contentsOfFile: outcome.reports + "/index.md", encoding: .utf8)
        #expect(!index.contains("2024-02") && !index.contains("[2023-"), "no month before the archive in the index")
    }

    @Test func aMonthBeforeTheArchiveIsRefusedNamingTheFirstObservedMonth() throws {
        let outcome = try SimulatorAgainstPipelineTests.outcome.get()
        var configuration = PipelineConfiguration()
        configuration.databasePath = (outcome.reports as NSString).deletingLastPathComponent + "/store.sqlite"
        configuration.reportsDirectory = NSTemporaryDirectory() + "iaplens-before-\(UUID().uuidString.prefix(8))"
        configuration.bundleId = outcome.manifest.bundleId
        configuration.months = ["2023-11"]
        do {
            _ = try Pipeline(configuration: configuration).report()
            Issue.record("a month before the archive was reported")
        } catch let error as PipelineError {
            #expect(error.exitCode == 64)
            #expect(error.description.contains("2024-03") && error.description.contains("--month 2023-11"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: configuration.reportsDirectory + "/2023-11"))
    }
}

extension ObservedMonthsTests {
    /// Before: `status` said 19 months covered while the reports held 33. After: the months `status` and `--json` give
    /// are the month folders.
    @Test func statusGivesTheMonthsTheReportsHold() throws {
        let outcome = try SimulatorAgainstPipelineTests.outcome.get()
        let folders = try FileManager.default.contentsOfDirectory(atPath: outcome.reports)
            .filter { $0.count == 7 && $0.hasPrefix("20") }.sorted()
        #expect(outcome.status.months == folders)
    }
}
