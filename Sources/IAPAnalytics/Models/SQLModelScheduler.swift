import Foundation
import IAPStore

/// Builds the models on the workers of a ``ModelWorkspace`` at the same time, then copies what the store keeps
/// (the marts, the staging views, the parameter tables) into it in one transaction.
///
/// A model starts as soon as every model it reads through `ref()` is built, on the first free worker; among the
/// models ready at once, the catalog's order decides. Each worker creates its tables in its own schema and the
/// views it needs as its own TEMP views, so the SQL of a model is the same as on one connection: only where
/// `ref()` and `source()` point changes (``SQLTemplate/placements``). At 1M notifications the models' critical
/// path (`int_transactions_priced` → `int_subscription_periods` → … → `consumption_requests`) is about 60 % of
/// their total time: the most two workers can save (Documentation/Performance.md "Analyze on several cores").
struct SQLModelScheduler {
    let runner: SQLModelRunner
    let workspace: any ModelWorkspace

    /// Builds every model, then runs `body` in the transaction that publishes them.
    func run<T>(
        _ options: AnalysisOptions, key: String, schema: String, then body: (any StoreConnection) throws -> T
    ) throws -> T {
        let parameterSchema = workspace.schema(ofWorker: 0)
        try workspace.withWorker(0) { connection in
            try runner.writeParameters(options, key: key, in: connection, into: parameterSchema)
        }
        var start = ContinuousClock.now
        let placed = try build(schema: schema)
        SQLModelRunner.printTiming("building on \(workspace.workerCount) workers", since: start)
        start = ContinuousClock.now
        defer { SQLModelRunner.printTiming("publishing", since: start) }
        return try workspace.publish { connection in
            // Every name qualified: an unqualified one that the store lacks (a new store's first analyze) would
            // resolve to a worker's schema, attached here.
            try runner.writeParameters(options, key: key, in: connection, into: connection.dialect.quoted(schema))
            let template = SQLTemplate(dialect: connection.dialect, schema: schema)
            for (model, sql) in runner.models {
                switch model.materialization {
                case .view:
                    try SQLModelRunner.execute(model, in: connection) {
                        try SQLModelRunner.statements(
                            model, select: try template.render(sql), dialect: connection.dialect)
                    }
                case .table:
                    guard let source = placed[model.name] else { continue }
                    try SQLModelRunner.execute(model, in: connection) {
                        Self.copyStatements(model, from: source, schema: schema, dialect: connection.dialect)
                    }
                case .temporaryTable, .temporaryView:
                    continue
                }
            }
            return try body(connection)
        }
    }

    /// The statements that replace the store's table of `model` with the rows a worker built in `source`.
    static func copyStatements(_ model: SQLModel, from source: String, schema: String, dialect: SQLDialect) -> String {
        let target = dialect.storeTable(model.name, schema: schema)
        return script(
            [
                "drop table if exists \(target)\(dialect.dropCascade)",
                "create table \(target) as select * from \(source)",
            ],
            model
        ) { dialect.createIndex($0.name, on: model.name, temporary: false, columns: $0.columns, unique: $0.isUnique) }
    }

    /// The statements that build `model` on a worker: a TEMP view, or a table, its indexes and (where the engine
    /// keeps them) its planner statistics in `schema`.
    static func workerStatements(_ model: SQLModel, select: String, schema: String, dialect: SQLDialect) -> String {
        let query = select.trimmingCharacters(in: .whitespacesAndNewlines)
            .trimmingCharacters(in: CharacterSet(charactersIn: ";"))
        if model.materialization.isView {
            return "drop view if exists \(dialect.temporaryTable(model.name));\n"
                + "create temp view \(model.name) as\n\(query);"
        }
        let table = "\(schema).\(model.name)"
        return script(
            [
                "drop table if exists \(table)\(dialect.dropCascade)",
                "create \(dialect.scratchTable) \(table) as\n\(query)",
            ],
            model, then: dialect.analyzeTable(table).map { [$0] } ?? []
        ) { dialect.createIndex($0.name, on: model.name, inSchema: schema, columns: $0.columns, unique: $0.isUnique) }
    }

    /// One script: `statements`, then each of `model`'s indexes as `index` writes it, then `then`.
    private static func script(
        _ statements: [String], _ model: SQLModel, then: [String] = [], index: (SQLModel.Index) -> String
    ) -> String {
        (statements + model.indexes.map(index) + then).joined(separator: ";\n") + ";"
    }

    /// Builds every table model on the workers, one thread each; returns where each one is (its qualified name).
    private func build(schema: String) throws -> [String: String] {
        let plan = SQLModelSchedule(runner.models.map { ($0.model, SQLTemplate.references(in: $0.sql)) })
        let buildStart = ContinuousClock.now
        let group = DispatchGroup()
        for worker in 0..<workspace.workerCount {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                work(as: worker, on: plan, schema: schema, buildStart: buildStart)
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        group.wait()
        if let failure = plan.failure { throw failure }
        return Dictionary(
            uniqueKeysWithValues: plan.tablePlacements.map { name, worker in
                (name, "\(workspace.schema(ofWorker: worker)).\(name)")
            })
    }

    /// One worker's loop: takes the next job until none is left, builds it (after the views it may read), and says
    /// so; a failure stops every worker.
    private func work(as worker: Int, on plan: SQLModelSchedule, schema: String, buildStart: ContinuousClock.Instant) {
        let sqlByName = Dictionary(uniqueKeysWithValues: runner.models.map { ($0.model.name, $0.sql) })
        let parameterSchema = workspace.schema(ofWorker: 0)
        let ownSchema = workspace.schema(ofWorker: worker)
        var viewsHere: Set<String> = []
        while let job = plan.next(createdViews: viewsHere) {
            let start = ContinuousClock.now
            do {
                try workspace.withWorker(worker) { connection in
                    var placements: [String: String] = [:]
                    for table in SQLModelRunner.parameterTables { placements[table] = "\(parameterSchema).\(table)" }
                    for (name, place) in job.placements {
                        placements[name] =
                            place.map { "\(workspace.schema(ofWorker: $0)).\(name)" }
                            ?? connection.dialect.temporaryTable(name)
                    }
                    let template = SQLTemplate(dialect: connection.dialect, schema: schema, placements: placements)
                    for model in job.views + [job.model] {
                        let select = try template.render(sqlByName[model.name] ?? "")
                        let statements = Self.workerStatements(
                            model, select: select, schema: ownSchema, dialect: connection.dialect)
                        if model.name == SQLModelRunner.explainedModel {
                            FileHandle.standardError.write(Data((statements + "\n").utf8))
                            try SQLModelRunner.printPlan(of: select, in: connection)
                        }
                        try SQLModelRunner.execute(model, in: connection) { statements }
                    }
                }
                viewsHere.formUnion(job.views.map(\.name))
                SQLModelRunner.printTiming(
                    "model \(job.model.name) on worker \(worker), started at \(SQLModelRunner.seconds(start - buildStart)) s",
                    since: start)
                plan.finished(job.model, on: worker)
                runner.counter?.finished(job.model)
            } catch {
                plan.failed(error)
            }
        }
    }
}
