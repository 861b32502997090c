import Foundation
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// The PostgreSQL store gives the SQLite store's reports byte for byte: on the committed sample and on
/// a simulated archive, in one run and in several.
@Suite struct EngineEquivalenceTests {
    /// Runs the whole pipeline on `configuration` once per engine and returns each engine's report folder.
    private func reportsOfBothEngines(
        root: String, _ configure: (String, String) -> PipelineConfiguration, runs: Int = 1
    ) throws -> [StoreKind: [String: [UInt8]]] {
        var trees: [StoreKind: [String: [UInt8]]] = [:]
        for kind in StoreKind.allCases {
            let folder = root + "/" + kind.rawValue
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let configuration = configure(try kind.freshDatabase(in: folder), folder + "/reports")
            for _ in 0..<runs { _ = try Pipeline(configuration: configuration).run() }
            trees[kind] = Tree.files(folder + "/reports")
        }
        return trees
    }

    @Test func theSampleGivesByteIdenticalReportsOnBothEngines() throws {
        let root = NSTemporaryDirectory() + "iaplens-engines-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let trees = try reportsOfBothEngines(root: root) { database, reports in
            SimulatedArchive.sampleConfiguration(database: database, reports: reports)
        }
        let sqlite = try #require(trees[.sqlite])
        #expect(sqlite.count > 200, "the sample writes a report set")
        let difference = Tree.difference(sqlite, try #require(trees[.postgres]))
        #expect(difference.isEmpty, "\(difference)")
        // And both are the committed sample reports.
        let committed = Tree.files(CLI.repositoryRoot + "/reports")
        #expect(
            Tree.difference(committed, sqlite).isEmpty,
            "reports/ is not what the sample gives: run scripts/run-sample.sh")
    }

    @Test func aSimulatedArchiveGivesByteIdenticalReportsOnBothEngines() throws {
        let archive = try SimulatedArchive(seed: 7, subscribers: 80, consumableBuyers: 40, refundRings: 3, months: 12)
        let trees = try reportsOfBothEngines(root: archive.root) { database, reports in
            archive.configuration(database: database, reports: reports)
        }
        let difference = Tree.difference(try #require(trees[.sqlite]), try #require(trees[.postgres]))
        #expect(difference.isEmpty, "\(difference)")
    }

    @Test func filesArrivingOverSeveralRunsGiveTheSameReportsOnPostgres() throws {
        let archive = try SimulatedArchive(seed: 11, months: 4)
        let whole = try archive.outputs("whole")
        _ = try Pipeline(configuration: archive.configuration(database: whole.database, reports: whole.reports)).run()
        // PostgreSQL, one folder at a time in reverse order, then everything again (all of it already read).
        let postgres = try TestPostgres.freshStore()
        let reports = archive.root + "/out-postgres-split"
        for folder in archive.inputFolders.reversed() {
            _ = try Pipeline(
                configuration: archive.configuration(database: postgres, reports: reports, inputs: [folder])
            ).run()
        }
        let last = try Pipeline(configuration: archive.configuration(database: postgres, reports: reports)).run()
        #expect(last.ingest.filesRead == 0, "every file was read by an earlier run")
        let difference = Tree.difference(Tree.files(whole.reports), Tree.files(reports))
        #expect(difference.isEmpty, "\(difference)")
        #expect(try CrashSafetyTests.rowCounts(postgres) == (try CrashSafetyTests.rowCounts(whole.database)))
    }
}
