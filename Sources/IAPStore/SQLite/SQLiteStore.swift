internal import CSQLite
import Foundation
public import GRDB

/// The default store engine: one SQLite file holding the raw facts ingest wrote and the models analyze built.
///
/// Like GRDB's `AppDatabase`, it owns the connection and runs the migrations when opened, so every
/// caller sees a current schema. The file is opened in WAL mode: a run killed at any instant leaves the
/// last committed batch intact, and the next run continues from there.
public final class SQLiteStore: StoreEngine {
    /// The connection. Ingest writes go through ``SQLiteDocumentWriter``; everything else through the
    /// ``StoreEngine`` methods (tests may read it directly).
    public let database: DatabaseQueue
    /// The file path, or `:memory:`.
    public let path: String

    /// Opens (creating if needed) the store at `path` and migrates it.
    /// - Throws: ``StoreError`` when the file cannot be opened or was written by a newer iaplens.
    public init(path: String) throws(StoreError) {
        _ = Self.processSettings
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // NORMAL is durable against a killed process in WAL mode (only power loss could lose the
            // last commit), and far faster than FULL for batch loads.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // Another application's database is refused before anything is written to it (not even a pragma).
            let tables = try queue.read { db in
                try String.fetchAll(
                    db,
                    sql:
                        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
                )
            }
            if !tables.isEmpty && !tables.contains("grdb_migrations") {
                throw StoreError.notAStore(path: path, tables: tables)
            }
            if path != ":memory:" {
                // 16 KB pages for a new store (an existing one keeps its size): fewer, larger pages halve the
                // b-tree pages that random-key inserts dirty per commit. A 1M-document load under --no-verify
                // took 91 s with 4 KB pages and 80 s with 16 KB; 1 KB was slower still. No effect once the file
                // has content.
                try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA page_size = 16384") }
                _ = try queue.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                }
            }
            try StoreMigrations.migrator.checkNotSuperseded(queue, path: path)
            try StoreMigrations.migrator.migrate(queue)
            self.database = queue
            self.path = path
        } catch let error as StoreError {
            throw error
        } catch {
            // Full or read-only as ``StorageCondition`` classifies it; CANTOPEN while opening is a store that cannot
            // be opened at all (a missing folder), said as such.
            let cannotOpen = (error as? DatabaseError)?.resultCode == .SQLITE_CANTOPEN
            switch cannotOpen ? nil : StorageCondition(error) {
            case .full?: throw StoreError.storageFull(path: path, reason: "\(error)")
            case .readOnly?: throw StoreError.storageReadOnly(path: path, reason: "\(error)")
            case nil: break
            }
            if (error as? DatabaseError)?.resultCode == .SQLITE_NOTADB {
                throw StoreError.invalidLocation(
                    path, reason: "it is not a SQLite database (\(error)); pass a new file or an iaplens store")
            }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                throw StoreError.invalidLocation(
                    path,
                    reason:
                        "it is a folder; name a file in it, e.g. \((path as NSString).appendingPathComponent("store.sqlite"))"
                )
            }
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// A store opened by ``SQLiteStore/readingOnly(path:)`` (no migration, no pragma written).
    init(readOnly database: DatabaseQueue, path: String) {
        _ = Self.processSettings
        self.database = database
        self.path = path
    }

    /// Process-wide SQLite settings, applied once before the first connection opens. Memory statistics
    /// off: they put a global mutex around every SQLite allocation, about 1.4 % of a verified ingest's CPU.
    private static let processSettings: Void = {
        _ = iaplens_sqlite3_disable_memstatus()
    }()

    /// An empty, migrated store in memory (tests).
    public static func inMemory() throws(StoreError) -> SQLiteStore {
        try SQLiteStore(path: ":memory:")
    }

    // MARK: - StoreEngine

    public var dialect: SQLDialect { .sqlite }
    public var schema: String { "main" }
    public var displayName: String { path }

    public func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try database.read { db in try body(SQLiteStoreConnection(db)) }
    }

    public func write<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try database.write { db in try body(SQLiteStoreConnection(db)) }
    }

    /// Page cache of the main and temp schemas while the models build, in MB.
    ///
    /// SQLite's default is 2 MB per schema. The intermediate models are TEMP tables of up to a million rows,
    /// and the marts look rows up in them and in the store at random; with 16 KB pages every miss copies a page
    /// from the spill file or the store. At 1M notifications that was 19 GB through `pread` and 2.3 s of system
    /// time. 16 MB each: 9.2–9.4 s → 8.0–8.1 s (temp alone 8.2 s, main alone 9.1 s), peak RSS unchanged at
    /// 124 MB; 32 MB was no faster and raised the peak to 150 MB.
    static let modelCacheMegabytes = 16

    public func buildModels<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try database.write { db in
            let main = try Int.fetchOne(db, sql: "PRAGMA main.cache_size") ?? -2_000
            let temp = try Int.fetchOne(db, sql: "PRAGMA temp.cache_size") ?? -2_000
            try db.execute(sql: "PRAGMA main.cache_size = -\(Self.modelCacheMegabytes * 1024)")
            try db.execute(sql: "PRAGMA temp.cache_size = -\(Self.modelCacheMegabytes * 1024)")
            defer {
                try? db.execute(sql: "PRAGMA main.cache_size = \(main)")
                try? db.execute(sql: "PRAGMA temp.cache_size = \(temp)")
            }
            return try body(SQLiteStoreConnection(db))
        }
    }

    /// Scratch files beside the store, one per worker (``SQLiteModelWorkspace``); nil in memory, where no second
    /// connection sees the store.
    public func makeModelWorkspace(workers: Int) throws -> (any ModelWorkspace)? {
        guard workers >= 2, path != ":memory:" else { return nil }
        return try SQLiteModelWorkspace(store: self, count: workers)
    }

    public func makeDocumentWriter() -> any DocumentWriter {
        SQLiteDocumentWriter(store: self)
    }

    /// A bulk ingest killed before its end leaves the secondary indexes dropped.
    public func finishInterruptedWork() throws {
        try SQLiteDocumentWriter(store: self).ensureSecondaryIndexes()
    }

    /// Runs SQLite's integrity check; returns the problems found (empty when healthy).
    public func integrityProblems() throws -> [String] {
        let rows = try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        return rows == ["ok"] ? [] : rows
    }
}
