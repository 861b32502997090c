import Foundation
import Synchronization

/// PostgreSQL's ``ModelWorkspace``: one more session per worker, and one scratch schema all of them build in,
/// `<store schema>_models`, holding unlogged tables (nothing there needs to survive a crash).
///
/// The server runs each session on its own core, but one session's statements on one: at 1M notifications the
/// models took about 40 s in one session. Each worker's tables are committed as they are built, so the others read
/// them; the store changes only in ``publish(_:)``. The scratch schema is dropped when the workers close, and by the
/// next `analyze` if a killed run left it. A schema of that name that iaplens did not create (its comment says
/// whose it is) is never touched: the models are then built in one session.
public final class PostgresModelWorkspace: ModelWorkspace {
    private let store: PostgresStore
    private let workers: [PostgresConnection]
    private let locks: [NSLock]
    private let scratch: String
    private let isClosed = Mutex(false)

    /// The comment that marks a scratch schema as iaplens's own.
    static let marker = "iaplens analyze scratch schema: dropped after each analyze"

    /// The scratch schema of the store in `schema`.
    static func scratchSchema(of schema: String) -> String { "\(schema)_models" }

    /// Opens `count` sessions over `store`, or returns nil when the scratch schema cannot be iaplens's (another
    /// object owns the name, the role may not create schemas, or the name would be over PostgreSQL's 63 bytes).
    static func open(store: PostgresStore, count: Int) throws -> PostgresModelWorkspace? {
        let scratch = scratchSchema(of: store.url.schema)
        // PostgreSQL would cut a longer name to 63 bytes, and then not find it by its full name in the next run.
        guard scratch.utf8.count <= 63 else { return nil }
        let first = try PostgresStore.connect(store.url)
        let comment = try first.rows(
            "SELECT coalesce(obj_description(oid, 'pg_namespace'), '') FROM pg_namespace WHERE nspname = ?",
            [.text(scratch)])
        if let existing = comment.first?[0].text {
            guard existing == marker else { return nil }
            try first.executeScript("DROP SCHEMA \(first.dialect.quoted(scratch)) CASCADE")
        }
        do {
            try first.executeScript("CREATE SCHEMA \(first.dialect.quoted(scratch))")
        } catch let error as StoreError where error.description.contains("SQLSTATE 42501") {
            return nil
        }
        try first.execute("COMMENT ON SCHEMA \(first.dialect.quoted(scratch)) IS '\(marker)'", [])
        var workers = [first]
        for _ in 1..<count { workers.append(try PostgresStore.connect(store.url)) }
        for worker in workers {
            try worker.use(schema: store.url.schema)
            // The settings the one-session build takes for its transaction (``PostgresStore/buildModels(_:)``),
            // here for the session: each worker's statements commit one by one.
            try worker.executeScript("SET work_mem = '64MB'; SET maintenance_work_mem = '256MB'")
        }
        // The planner statistics of the fact tables, as the one-session build gathers them, before the first model
        // plans a join over them (committed at once: statistics and the sizes they were taken at, no data).
        _ = try PostgresPlannerStatistics.refresh(PostgresStore.factTables, schema: store.url.schema, in: first)
        return PostgresModelWorkspace(store: store, workers: workers, scratch: scratch)
    }

    private init(store: PostgresStore, workers: [PostgresConnection], scratch: String) {
        self.store = store
        self.workers = workers
        self.locks = workers.map { _ in NSLock() }
        self.scratch = scratch
    }

    deinit { close() }

    public var workerCount: Int { workers.count }

    public func schema(ofWorker index: Int) -> String { workers[0].dialect.quoted(scratch) }

    public func withWorker<T>(_ index: Int, _ body: (any StoreConnection) throws -> T) throws -> T {
        try locks[index].withLock { try body(workers[index]) }
    }

    public func publish<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try store.write(body)
    }

    public func close() {
        let wasClosed = isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        try? workers[0].executeScript("DROP SCHEMA IF EXISTS \(workers[0].dialect.quoted(scratch)) CASCADE")
    }
}
