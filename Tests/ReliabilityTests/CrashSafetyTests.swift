import Foundation
import GRDB
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Nothing lost, nothing doubled when `iaplens run` is killed with SIGKILL at random instants.
///
/// Four fresh stores; each sees five runs killed at seeded random delays between 0 and the length of an
/// uninterrupted run (so kills land in ingest, analyze and report writing), then one run that completes.
/// Every final report folder must be byte-identical to an uninterrupted run's (no stray temporary files
/// either), the store must pass SQLite's integrity check after every kill, and the kernel must have released
/// the run lock of each killed run (the next run is never refused with exit 75).
@Suite(.serialized) struct CrashSafetyTests {
    static let trials = 4
    static let killsPerTrial = 5

    @Test func killedRunsThenARerunGiveTheReportsOfAnUninterruptedRun() throws {
        let archive = try SimulatedArchive()
        let reference = try archive.outputs("reference")
        let uninterrupted = try CLI.run(archive.runArguments(database: reference.database, reports: reference.reports))
        try #require(uninterrupted.status == 0, "reference run failed: \(uninterrupted.stderr)")
        let expected = Tree.files(reference.reports)
        let expectedCounts = try Self.rowCounts(reference.database)
        let window = max(uninterrupted.seconds, 0.3)

        var random = SeededRandom(seed: 0x1a91e5)
        var killedMidway = 0
        for trial in 0..<Self.trials {
            let outputs = try archive.outputs("trial\(trial)")
            let interrupted = try CLI.killRepeatedly(
                archive.runArguments(database: outputs.database, reports: outputs.reports), kills: Self.killsPerTrial,
                window: window, random: &random,
                expectSuccess: { result, attempt in
                    #expect(result.status == 0, "trial \(trial) \(attempt): \(result.stderr)")
                },
                afterEach: { attempt throws in
                    guard FileManager.default.fileExists(atPath: outputs.database) else { return }
                    let problems = try SQLiteStore(path: outputs.database).integrityProblems()
                    #expect(problems == [], "trial \(trial) \(attempt)")
                })
            killedMidway += interrupted
            let rerun = try CLI.run(archive.runArguments(database: outputs.database, reports: outputs.reports))
            #expect(
                rerun.status == 0,
                "trial \(trial): the rerun after kills failed (a stale lock gives 75): \(rerun.stderr)")
            #expect(try SQLiteStore(path: outputs.database).integrityProblems() == [])
            let actual = Tree.files(outputs.reports)
            let difference = Tree.difference(expected, actual)
            #expect(difference.isEmpty, "trial \(trial):\n\(difference)")
            #expect(try Self.rowCounts(outputs.database) == expectedCounts, "trial \(trial): rows lost or doubled")
            // A kill during a bulk load leaves its dropped secondary indexes missing; the rerun builds them again.
            #expect(
                try Self.indexes(outputs.database) == Self.indexes(reference.database), "trial \(trial): indexes differ"
            )
        }
        // The delays are random but seeded; nearly all kills must really interrupt a run or the test proves little.
        #expect(
            killedMidway >= Self.trials * Self.killsPerTrial * 3 / 4, "only \(killedMidway) kills interrupted a run")
    }

    /// A run killed between writing a report's temporary file and renaming it leaves `<name>.tmp-<pid>`; the
    /// next run must remove it (found by the test above: the rerun's folder held `flagged_accounts.csv.tmp-4797`).
    @Test func theNextRunRemovesTemporaryFilesAKilledRunLeftInTheReports() throws {
        let archive = try SimulatedArchive(months: 2)
        let outputs = try archive.outputs("tmp")
        _ = try Pipeline(configuration: archive.configuration(database: outputs.database, reports: outputs.reports))
            .run()
        let month = try #require(
            try FileManager.default.contentsOfDirectory(atPath: outputs.reports).filter {
                $0.count == 7 && $0.dropFirst(4).first == "-"
            }.sorted().first)
        let expected = Tree.files(outputs.reports)
        // The manifest's temporary too (found by the test above in CI: `.iaplens-files.tmp-21955` after a rerun).
        let stale = [
            "\(month)/churn.csv.tmp-4797", "\(month)/report.md.tmp-12", "index.md.tmp-99999",
            ".iaplens-files.tmp-21955",
        ]
        let unrelated = ["\(month)/notes.txt.tmp-1", "\(month)/churn.csv.tmp-x"]
        for name in stale + unrelated {
            try Data("partial".utf8).write(to: URL(fileURLWithPath: outputs.reports + "/" + name))
        }
        _ = try Pipeline(configuration: archive.configuration(database: outputs.database, reports: outputs.reports))
            .run()
        var actual = Tree.files(outputs.reports)
        for name in unrelated {
            #expect(actual.removeValue(forKey: name) != nil, "\(name) is not ours and must be left alone")
        }
        let difference = Tree.difference(expected, actual)
        #expect(difference.isEmpty, "\(difference)")
    }

    /// The store's index definitions (the analysis models' temporary ones excluded).
    static func indexes(_ database: String) throws -> [String] {
        try SQLiteStore(path: database).database.read { db in
            try String.fetchAll(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        }
    }

    /// Row counts of the fact tables: a rerun after kills must hold exactly what an uninterrupted run holds.
    /// `database` is a SQLite path or a PostgreSQL URL.
    static func rowCounts(_ database: String) throws -> [String: Int] {
        let store = try StoreLocation(database).open()
        var counts: [String: Int] = [:]
        for table in [
            "source_files", "documents", "quarantine", "notifications", "renewal_infos",
            "order_lookups", "order_lookup_transactions", "transaction_versions", "transactions",
        ] {
            counts[table] = try store.read { connection in
                Int(try connection.integer("SELECT count(*) FROM \(table)") ?? -1)
            }
        }
        return counts
    }
}
