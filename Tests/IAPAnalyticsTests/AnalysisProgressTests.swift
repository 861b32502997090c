import Foundation
import IAPStore
import IAPTestSupport
import Synchronization
import Testing

@testable import IAPAnalytics

/// `analyze` tells its caller of each table model it builds, on one connection and on several.
@Suite("Analysis progress")
struct AnalysisProgressTests {
    /// The reports of one `analyze` of the busy scenario on `workers` connections.
    func progressReports(workers: Int) throws -> [AnalysisProgress] {
        let suite = ParallelAnalyzeTests()
        let scenario = try suite.busyScenario(path: try suite.storePath())
        _ = try scenario.report(modelWorkers: 1)
        let reports = Mutex<[AnalysisProgress]>([])
        _ = try Analyzer(store: scenario.store, modelWorkers: workers) { progress in
            reports.withLock { $0.append(progress) }
        }.analyze(AnalysisOptions(bundleId: "com.example.app"), keepingCurrentModels: false)
        return reports.withLock { $0 }.sorted { $0.modelsBuilt < $1.modelsBuilt }
    }

    @Test(arguments: [1, 2])
    func everyTableModelIsReportedOnceAndCounted(workers: Int) throws {
        // Given the catalog's table models
        let tables = SQLModelCatalog.models.filter { !$0.materialization.isView }.map(\.name)
        // When a store is analysed on `workers` connections
        let reports = try progressReports(workers: workers)
        // Then each table model is reported once, and the counts run 1 … all of them out of all of them
        #expect(reports.map(\.lastModel).sorted() == tables.sorted())
        #expect(reports.map(\.modelsBuilt) == Array(1...tables.count))
        #expect(reports.allSatisfy { $0.totalModels == tables.count })
        #expect(reports.allSatisfy { $0.elapsed >= .zero })
    }
}
