internal import CSQLite
import Foundation
import GRDB
import Synchronization

/// SQLite's ``ModelWorkspace``: one more connection to the store per worker, and one scratch database file per
/// worker beside the store (`<store>-models-<i>`, attached to every worker as `worker_<i>`).
///
/// Why files and not TEMP tables: a TEMP table lives in one connection, and the point is that a model built on
/// one core is read by the next model on the other. Why one file per worker: SQLite lets one connection at a time
/// write a database file, and the scratch files are in WAL mode so a worker reads the other's finished tables
/// while that one writes its next. Nothing there needs to survive a crash (`synchronous = OFF`): the files are
/// removed when the analyze ends, and when the next one starts if a killed run left them.
public final class SQLiteModelWorkspace: ModelWorkspace {
    private let store: SQLiteStore
    private let workers: [DatabaseQueue]
    private let paths: [String]
    private let isClosed = Mutex(false)

    /// Page cache, in MB, of each worker's connection for the store, for its own scratch database, and for each
    /// other worker's. With the one-connection build's 16 MB for each, two workers peaked at 236–260 MB resident at
    /// 1M notifications, over the 200 MB every stage keeps to (README "Memory, whatever the input"); 8 / 8 / 4
    /// peaked at 144–161 MB in the same time (16.1–18.3 s against 16.6–18.1 s, within this VM's noise), and
    /// 4 MB for the store was slower (19.1 s).
    static let mainCacheMegabytes = 8
    static let ownCacheMegabytes = 8
    static let otherCacheMegabytes = 4

    /// The scratch database of worker `index` for the store at `storePath`.
    static func scratchPath(_ storePath: String, worker index: Int) -> String {
        "\(storePath)-models-\(index)"
    }

    /// Opens `count` workers over `store` (a file store).
    init(store: SQLiteStore, count: Int) throws {
        self.store = store
        paths = (0..<count).map { Self.scratchPath(store.path, worker: $0) }
        for path in paths {
            Self.remove(path)
            // WAL and the page size are set once, before the file has a table; both persist in the file.
            let creator = try DatabaseQueue(path: path)
            try creator.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA page_size = 16384")
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            }
            try creator.close()
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(60)
        let paths = paths
        configuration.prepareDatabase { db in
            // The scratch files are deleted when the build ends: their WAL is never copied into them, neither as
            // it grows nor when the connection closes (the workers write nothing into the store).
            _ = iaplens_sqlite3_skip_checkpoint_on_close(db.sqliteConnection)
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "PRAGMA main.cache_size = -\(Self.mainCacheMegabytes * 1024)")
            for (index, path) in paths.enumerated() {
                try db.execute(sql: "ATTACH DATABASE ? AS \(Self.schemaName(index))", arguments: [path])
                try db.execute(sql: "PRAGMA \(Self.schemaName(index)).synchronous = OFF")
                try db.execute(sql: "PRAGMA \(Self.schemaName(index)).cache_size = -\(Self.otherCacheMegabytes * 1024)")
            }
        }
        var opened: [DatabaseQueue] = []
        do {
            for index in 0..<count {
                let queue = try DatabaseQueue(path: store.path, configuration: configuration)
                try queue.writeWithoutTransaction { db in
                    try db.execute(
                        sql: "PRAGMA \(Self.schemaName(index)).cache_size = -\(Self.ownCacheMegabytes * 1024)")
                }
                opened.append(queue)
            }
        } catch {
            for queue in opened { try? queue.close() }
            for path in paths { Self.remove(path) }
            throw error
        }
        workers = opened
    }

    deinit { close() }

    private static func schemaName(_ index: Int) -> String { "worker_\(index)" }

    private static func remove(_ path: String) {
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] {
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    public var workerCount: Int { workers.count }

    public func schema(ofWorker index: Int) -> String { Self.schemaName(index) }

    public func withWorker<T>(_ index: Int, _ body: (any StoreConnection) throws -> T) throws -> T {
        // A model's sorts and temporary b-trees free their memory when it ends, but glibc keeps it in the worker
        // thread's arena: at 1M real-shaped notifications the heap crept up model by model, in steps of about 8 MB,
        // from 104 MB to 151 MB, and analyze peaked at up to 200 MB; trimmed, the heap stays under 70 MB
        // (Documentation/Performance.md "Analyze and report").
        defer { MemoryRelease.returnFreedMemory() }
        return try workers[index].writeWithoutTransaction { db in try body(SQLiteStoreConnection(db)) }
    }

    public func publish<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try store.database.writeWithoutTransaction { db in
            // ATTACH is refused inside a transaction: attach, then open the one that publishes.
            for (index, path) in paths.enumerated() {
                try db.execute(sql: "ATTACH DATABASE ? AS \(Self.schemaName(index))", arguments: [path])
            }
            defer {
                for index in paths.indices { try? db.execute(sql: "DETACH DATABASE \(Self.schemaName(index))") }
            }
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(SQLiteStoreConnection(db))
                return .commit
            }
            guard let result else {
                throw StoreError.writeFailed(reason: "publishing the models committed without a result")
            }
            return result
        }
    }

    public func close() {
        let wasClosed = isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        for queue in workers { try? queue.close() }
        for path in paths { Self.remove(path) }
    }
}
