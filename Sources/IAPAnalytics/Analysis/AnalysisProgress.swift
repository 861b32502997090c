import Synchronization

/// A progress report while `analyze` builds its models: how many of the tables are built, and the latest one.
public struct AnalysisProgress: Sendable, Equatable {
    /// Table models built so far (views cost nothing and are not counted).
    public var modelsBuilt: Int
    /// Table models to build in all.
    public var totalModels: Int
    /// The model whose build just ended.
    public var lastModel: String
    /// Time since the first model started.
    public var elapsed: Duration
}

/// Counts the table models built, from whichever worker's thread built them, and hands each count to the caller.
final class ModelBuildCounter: Sendable {
    private let report: @Sendable (AnalysisProgress) -> Void
    private let totalModels: Int
    private let start = ContinuousClock.now
    private let built = Mutex(0)

    init(models: [SQLModel], report: @escaping @Sendable (AnalysisProgress) -> Void) {
        self.report = report
        totalModels = models.filter { !$0.materialization.isView }.count
    }

    /// Says that `model` is built (a view is not counted).
    func finished(_ model: SQLModel) {
        guard !model.materialization.isView else { return }
        let count = built.withLock { count -> Int in
            count += 1
            return count
        }
        report(
            AnalysisProgress(
                modelsBuilt: count, totalModels: totalModels, lastModel: model.name,
                elapsed: ContinuousClock.now - start))
    }
}
