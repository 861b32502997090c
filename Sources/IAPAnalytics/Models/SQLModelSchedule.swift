import Foundation

/// The shared state of a build on several workers (``SQLModelScheduler``): which models are built and where, and
/// which model a free worker takes next. Every method is safe to call from any worker's thread.
final class SQLModelSchedule: @unchecked Sendable {
    /// What a worker builds next: `model`, after creating `views` (the views built since this worker last took a
    /// job, in catalog order). `placements` says where each model built so far is: a worker's index, or nil for a
    /// view (each worker's own TEMP view).
    struct Job {
        let model: SQLModel
        let views: [SQLModel]
        let placements: [String: Int?]
    }

    private let condition = NSCondition()
    private let models: [(model: SQLModel, references: [String])]
    private var started: Set<String> = []
    private var placements: [String: Int?] = [:]
    private var views: [SQLModel] = []
    private var firstFailure: (any Error)?

    /// `models` in catalog order (a topological order), each with the models it reads.
    init(_ models: [(model: SQLModel, references: [String])]) {
        let names = Set(models.map(\.model.name))
        // A reference to a model outside the build cannot be waited for; the template refuses it when rendered.
        let known = models.map { (model: $0.model, references: $0.references.filter(names.contains)) }
        // Among the models ready at once, the one with the longest chain of tables waiting on it goes first: at 1M
        // notifications `reconciliation` (1.3 s) waited behind the subscription branch's models in catalog order
        // although `report_months`, and every flag model after it, waited on it.
        var chain: [String: Int] = [:]
        for (model, _) in known.reversed() {
            let readers = known.filter { $0.references.contains(model.name) }.map { chain[$0.model.name] ?? 0 }
            chain[model.name] = (model.materialization.isView ? 0 : 1) + (readers.max() ?? 0)
        }
        self.models = known.enumerated()
            .sorted {
                ((chain[$0.element.model.name] ?? 0), -$0.offset) > ((chain[$1.element.model.name] ?? 0), -$1.offset)
            }
            .map(\.element)
    }

    /// The first failure a worker reported, if any.
    var failure: (any Error)? { condition.withLock { firstFailure } }

    /// Where each table model was built (the worker's index).
    var tablePlacements: [String: Int] {
        condition.withLock { placements.compactMapValues { $0 } }
    }

    /// The next job for a worker that has created `createdViews`, waiting while every model left waits for one
    /// being built; nil when nothing is left to start or a worker failed.
    func next(createdViews: Set<String>) -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while firstFailure == nil && started.count < models.count {
            var job: Job?
            // A view costs nothing to build: it is done once its inputs are (wherever it stands in the priority
            // order), and each worker creates it before the first job that may read it.
            var madeViewReady = true
            while madeViewReady {
                madeViewReady = false
                for (model, references) in models
                where model.materialization.isView && !started.contains(model.name)
                    && references.allSatisfy({ placements[$0] != nil })
                {
                    started.insert(model.name)
                    placements[model.name] = .some(nil)
                    views.append(model)
                    madeViewReady = true
                }
            }
            for (model, references) in models
            where !started.contains(model.name) && references.allSatisfy({ placements[$0] != nil }) {
                started.insert(model.name)
                job = Job(model: model, views: views.filter { !createdViews.contains($0.name) }, placements: placements)
                break
            }
            if let job { return job }
            if started.count == models.count { break }
            condition.wait()
        }
        return nil
    }

    /// Records that `model` is built on `worker`, which may make others ready.
    func finished(_ model: SQLModel, on worker: Int) {
        condition.withLock { placements[model.name] = .some(worker) }
        condition.broadcast()
    }

    /// Records a worker's failure: no model starts after it.
    func failed(_ error: any Error) {
        condition.withLock { if firstFailure == nil { firstFailure = error } }
        condition.broadcast()
    }
}
