import Foundation
import GRDB
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// The stages run one by one, as a scheduler might: `report` never presents models older than the data.
@Suite struct StageSequenceTests {
    @Test func reportAfterALaterIngestRebuildsTheModels() throws {
        let archive = try TestArchive()
        try SmallWorld.write(into: archive, only: ["v2/2023-q4.jsonl"])
        let configuration = try archive.configuration()
        let pipeline = Pipeline(configuration: configuration)
        _ = try pipeline.ingest()
        _ = try pipeline.analyze()
        _ = try pipeline.report()
        let before = CSVReader.records(try archive.report("2023-11/refunds.csv")).first?["refunds"]

        // New lookups arrive: ingest only, then report (no analyze in between).
        try SmallWorld.write(into: archive, only: ["lookups/refunds.json"])
        _ = try pipeline.ingest()
        _ = try pipeline.report()
        let after = CSVReader.records(try archive.report("2023-11/refunds.csv")).first?["refunds"]
        #expect(before == "1")
        #expect(after == "3")
    }

    @Test func reportReusesCurrentModels() throws {
        let archive = try TestArchive()
        try SmallWorld.write(into: archive)
        let pipeline = Pipeline(configuration: try archive.configuration())
        _ = try pipeline.run()
        let store = try SQLiteStore(path: archive.database)
        let analyses = {
            try store.database.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM runs WHERE command = 'analyze'") ?? 0
            }
        }
        let before = try analyses()
        _ = try pipeline.report()
        #expect(try analyses() == before)
    }

    @Test func analyzeAndReportTakeTheAppFromTheStoreWhenNotGiven() throws {
        let archive = try TestArchive()
        try SmallWorld.write(into: archive)
        _ = try Pipeline(configuration: try archive.configuration()).ingest()
        var configuration = PipelineConfiguration()
        configuration.databasePath = archive.database
        configuration.reportsDirectory = archive.reports
        _ = try Pipeline(configuration: configuration).report()
        #expect(CSVReader.records(try archive.report("2023-11/refunds.csv")).first?["refunds"] == "3")
    }
}
