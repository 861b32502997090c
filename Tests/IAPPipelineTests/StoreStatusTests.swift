import Foundation
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// `status` on what a killed run leaves: its row in the run log says `running` for good, so `status` asks whether any
/// process holds the store before repeating it.
@Suite struct StoreStatusTests {
    @Test(arguments: StoreKind.allCases)
    func aRunNoProcessHoldsIsSaidToHaveStopped(_ kind: StoreKind) throws {
        let archive = try TestArchive()
        try SmallWorld.write(into: archive, only: ["v2/2023-q4.jsonl"])
        let database = try kind.freshDatabase(in: archive.root)
        let pipeline = Pipeline(configuration: try archive.configuration { $0.databasePath = database })
        _ = try pipeline.ingest()
        // An analyze whose process died before it finished.
        let location = try StoreLocation(database)
        _ = try RunLog(store: try location.open()).begin(command: "analyze", isVerified: true)
        let analyze = { try pipeline.status().lastRuns.first { $0.command == "analyze" }?.outcome }
        #expect(try analyze() == StoreStatus.LastRun.stoppedOutcome)
        #expect(try pipeline.status().lastRuns.first { $0.command == "ingest" }?.outcome == "completed")
        // While a process holds the store, the same row is a run in progress.
        let lock = try location.lockForRun(command: "analyze")
        #expect(try location.isRunLockHeld())
        #expect(try analyze() == StoreStatus.LastRun.runningOutcome)
        withExtendedLifetime(lock) {}
    }
}
