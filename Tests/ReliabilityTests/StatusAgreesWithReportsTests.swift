import Foundation
import IAPAnalytics
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// `status` and the data-quality section of `report.md` read one definition of each figure (`DocumentFigures`), so
/// on the same store they give the same numbers, on both engines, also with --no-verify documents among them.
@Suite struct StatusAgreesWithReportsTests {
    @Test(arguments: StoreKind.allCases)
    func statusAndTheReportsGiveTheSameFigures(_ kind: StoreKind) throws {
        let archive = try SimulatedArchive(seed: 5, months: 3)
        let outputs = try archive.outputs(kind.rawValue)
        let database = try kind.freshDatabase(in: (outputs.database as NSString).deletingLastPathComponent)
        // The notifications ingested without verification, so the unverified count is not zero (and, with the
        // sandbox and TEST documents among them, differs from a count of every unverified stored document).
        var unverified = archive.configuration(
            database: database, reports: outputs.reports, inputs: [archive.inputFolders[0]])
        unverified.noVerify = true
        _ = try Pipeline(configuration: unverified).ingest()
        let pipeline = Pipeline(configuration: archive.configuration(database: database, reports: outputs.reports))
        _ = try pipeline.run()
        let status = try pipeline.status()
        let store = try StoreLocation(database).open()
        let quality = try Analyzer(store: store).reportSet(try analysisOptions(pipeline)).dataQuality
        #expect(status.filesComplete == quality.filesRead)
        #expect(status.duplicates == quality.duplicates)
        #expect(status.unverifiedDocuments == quality.unverifiedDocuments)
        #expect(status.unverifiedDocuments > 0)
        #expect(
            status.documentsByOutcome.contains { $0.label == "other_environment" && $0.count > 0 },
            "the archive must hold sandbox documents")
        #expect(
            status.quarantineByReason.map { "\($0.label)=\($0.count)" }
                == quality.quarantinedByReason.map { "\($0.label)=\($0.count)" })
        #expect(!status.quarantineByReason.isEmpty, "the simulated archive has broken lines")
        let outcomes = Dictionary(uniqueKeysWithValues: status.documentsByOutcome.map { ($0.label, $0.count) })
        #expect(outcomes["accepted"] == quality.accepted)
        #expect(status.documentsByOutcome.reduce(0) { $0 + $1.count } == quality.documentsRead)
        #expect(outcomes["test_notification", default: 0] == quality.testNotifications)
        // And report.md prints those figures.
        let month = try #require(
            try FileManager.default.contentsOfDirectory(atPath: outputs.reports).filter {
                $0.count == 7 && $0.dropFirst(4).first == "-"
            }.sorted().last)
        let page = try String(contentsOfFile: outputs.reports + "/\(month)/report.md", encoding: .utf8)
        #expect(page.contains("\(quality.duplicates)"))
    }

    private func analysisOptions(_ pipeline: Pipeline) throws -> AnalysisOptions {
        pipeline.analysisOptions
    }
}
