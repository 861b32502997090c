import Foundation
import IAPStore
import IAPTestSupport
import Testing

@testable import IAPAnalytics

/// `analyze` on several SQLite connections (SQLModelScheduler over SQLiteModelWorkspace) against the same build
/// on one connection: the same marts, nothing published on failure, nothing left beside the store.
@Suite("Analyze on several connections")
struct ParallelAnalyzeTests {
    /// A store file in a fresh folder.
    func storePath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "iaplens-parallel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("store.sqlite").path
    }

    /// Subscriptions that renew, churn and get refunded; consumables refunded often enough to flag their account;
    /// a consumption request: every mart gets rows.
    func busyScenario(path: String) throws -> Scenario {
        try busyScenario(engine: try SQLiteStore(path: path))
    }

    func busyScenario(engine: any StoreEngine) throws -> Scenario {
        let scenario = try Scenario(engine: engine)
        for user in 0..<6 {
            let original = "s\(user)"
            for month in 1...(2 + user % 4) {
                let purchase = at(String(format: "2026-%02d-0%d", month, 1 + user % 7))
                let txn = Txn.subscription(
                    "\(original)-\(month)", original: original, purchase: purchase, expires: purchase + 30 * day,
                    token: "tok-\(user)")
                scenario.notify(
                    month == 1 ? "SUBSCRIBED" : "DID_RENEW", at: purchase, txn, renewal: Renewal(original: original))
                if user == 2 && month == 2 {
                    scenario.notify("REFUND", at: purchase + 3 * day, txn.revoked(at: purchase + 3 * day))
                }
            }
        }
        for index in 0..<5 {
            let purchase = at("2026-03-0\(index + 1)")
            let coin = Txn.consumable("c\(index)", purchase: purchase, token: "tok-ring")
            scenario.notify("ONE_TIME_CHARGE", at: purchase, coin)
            if index < 4 { scenario.notify("REFUND", at: purchase + day, coin.revoked(at: purchase + day)) }
        }
        scenario.notify(
            "CONSUMPTION_REQUEST", at: at("2026-03-07"),
            Txn.consumable("c4", purchase: at("2026-03-05"), token: "tok-ring"))
        return scenario
    }

    /// Every mart's rows, sorted, as text.
    func marts(_ store: any StoreEngine) throws -> [String: [String]] {
        try store.read { connection in
            var result: [String: [String]] = [:]
            for mart in SQLModelCatalog.marts {
                result[mart.name] = try connection.rows("select * from \(mart.name)")
                    .map { row in row.values.map { "\($0)" }.joined(separator: "|") }.sorted()
            }
            return result
        }
    }

    func leftovers(beside path: String) throws -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("-models-") }
    }

    @Test func severalConnectionsBuildWhatOneBuilds() throws {
        // Given a store file with activity in every mart
        let path = try storePath()
        let scenario = try busyScenario(path: path)
        #expect(
            try scenario.store.makeModelWorkspace(workers: 2).map { workspace in
                defer { workspace.close() }
                return workspace.workerCount
            } == 2)
        // When analysed on two connections, then on one
        let parallelReport = try scenario.report(modelWorkers: 2)
        let parallel = try marts(scenario.store)
        let serialReport = try scenario.report(modelWorkers: 1)
        let serial = try marts(scenario.store)
        // Then the same marts and reports, every mart has rows, and no scratch file is left
        #expect(parallel == serial)
        #expect(parallelReport == serialReport)
        for mart in ["churn", "subscriptions", "refunds", "flagged_accounts", "consumption_requests", "report_months"] {
            #expect(!(parallel[mart] ?? []).isEmpty, "\(mart) is empty")
        }
        #expect(try leftovers(beside: path).isEmpty)
    }

    @Test func aFailingModelPublishesNothing() throws {
        // Given an analysed store
        let path = try storePath()
        let scenario = try busyScenario(path: path)
        _ = try scenario.report(modelWorkers: 2)
        let before = try marts(scenario.store)
        // When a later build fails at one mart (its SQL reads a table that does not exist)
        let models = try SQLModelSource.load().map { entry in
            entry.model.name == "refunds" ? (entry.model, "select * from {{ source('no_such_table') }}") : entry
        }
        let workspace = try #require(try scenario.store.makeModelWorkspace(workers: 2))
        #expect(throws: AnalysisError.self) {
            defer { workspace.close() }
            try SQLModelScheduler(runner: SQLModelRunner(models: models), workspace: workspace)
                .run(AnalysisOptions(bundleId: "com.example.app", asOf: at("2027-01-01")), key: "other", schema: "main")
            { _ in }
        }
        // Then every mart is as it was (the other options' as-of would have changed them) and nothing is left
        #expect(try marts(scenario.store) == before)
        #expect(try leftovers(beside: path).isEmpty)
    }

    @Test func scratchFilesOfAKilledRunAreReplaced() throws {
        // Given scratch files a killed analyze left beside the store, one of them not even a database
        let path = try storePath()
        let scenario = try busyScenario(path: path)
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: path + "-models-0"))
        try Data(count: 100).write(to: URL(fileURLWithPath: path + "-models-1-wal"))
        // When analysed
        let report = try scenario.report(modelWorkers: 2)
        // Then the run succeeds as on one connection, and the leftovers are gone
        #expect(report == (try scenario.report(modelWorkers: 1)))
        #expect(try leftovers(beside: path).isEmpty)
    }

    @Test func severalPostgresSessionsBuildWhatOneBuilds() throws {
        // Given a PostgreSQL store with activity in every mart, in a schema whose name needs quoting
        let url = try TestPostgres.serverURL() + "?schema=Parallel_\(UUID().uuidString.prefix(8))"
        let store = try StoreLocation(url).open()
        let scenario = try busyScenario(engine: store)
        // When analysed in two sessions (a scratch schema of unlogged tables), then in one
        let parallelReport = try scenario.report(modelWorkers: 2)
        let parallel = try marts(store)
        let serialReport = try scenario.report(modelWorkers: 1)
        // Then the same marts and reports, and the scratch schema is gone
        #expect(parallel == (try marts(store)))
        #expect(parallelReport == serialReport)
        #expect(!(parallel["flagged_accounts"] ?? []).isEmpty)
        let schema = try PostgresURL(url).schema
        #expect(
            try store.read { connection in
                try connection.integer(
                    "select count(*) from pg_namespace where nspname = ?", [.text(schema + "_models")])
            } == 0)
    }
}
