import Foundation
import IAPPipeline
import IAPStore
import IAPTestSupport
import IAPVerification
import Testing

/// Progress reports: a bulk load says when its documents are stored and the deferred indexes are being built,
/// so the seconds that takes are not silent; a small delta never says so.
@Suite struct IngestProgressTests {
    let app = AppFixture()

    private final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [IngestProgress] = []
        func append(_ item: IngestProgress) { lock.withLock { items.append(item) } }
        var all: [IngestProgress] { lock.withLock { items } }
    }

    private func ingest(_ archive: TestArchive, into store: SQLiteStore) throws -> (IngestSummary, [IngestProgress]) {
        let policy = IngestPolicy(
            bundleId: app.bundleId, appAppleId: app.appAppleId, environment: "Production", verifySignatures: true)
        let roots = try TrustedRoot.load(fromFile: try archive.trustedRoot())
        let runId = try RunLog(store: store).begin(command: "ingest", isVerified: true)
        let reports = Reports()
        let stage = IngestStage(
            store: store, options: .init(inputs: [archive.inputs], policy: policy, roots: roots),
            progress: reports.append)
        return (try stage.run(runId: runId), reports.all)
    }

    private func subscriptions(_ range: Range<Int>) throws -> [String] {
        try range.map { index in
            try app.notification(
                type: "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n-\(index)", signedDate: Day.at(1),
                transaction: app.transaction(
                    id: "t\(index)", purchase: Day.at(1), expires: Day.at(31), signedDate: Day.at(1)),
                renewal: app.renewal(original: "t\(index)", signedDate: Day.at(1)))
        }
    }

    @Test func aBulkLoadSaysWhenItBuildsTheDeferredIndexes() throws {
        let archive = try TestArchive()
        // More bytes than the empty store: a bulk load.
        try archive.write("first.jsonl", lines: try subscriptions(0..<80))
        let store = try SQLiteStore(path: archive.database)
        let (summary, reports) = try ingest(archive, into: store)
        let phases = reports.map(\.phase)
        #expect(phases.filter { $0 == .buildingIndexes }.count == 1)
        let building = try #require(reports.first { $0.phase == .buildingIndexes })
        #expect(building.documents == summary.documentsRead && summary.documentsRead == 80)
        #expect(!building.isFinal)
        #expect(reports.last?.isFinal == true)
        #expect(Array(phases.drop { $0 == .loading }) == [.buildingIndexes, .finished])

        // A small delta into the same store keeps its indexes: nothing to build, nothing said.
        try archive.write("second.jsonl", lines: try subscriptions(80..<82))
        let (delta, deltaReports) = try ingest(archive, into: store)
        #expect(delta.documentsRead == 2)
        #expect(!deltaReports.contains { $0.phase == .buildingIndexes })
    }
}
