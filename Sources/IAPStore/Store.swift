public import GRDB
import Foundation
internal import CSQLite

/// The iaplens store: one SQLite file holding the raw facts ingest wrote and the models analyze built.
///
/// Like GRDB's `AppDatabase`, it owns the connection and runs the migrations when opened, so every
/// caller sees a current schema. The file is opened in WAL mode: a run killed at any instant leaves the
/// last committed batch intact, and the next run continues from there.
public final class Store: Sendable {
    /// The connection. Writes go through ``StoreWriter``; reads may use it directly.
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
            if path != ":memory:" {
                // 16 KB pages for a new store (an existing one keeps its size): fewer, larger pages halve the
                // b-tree pages that random-key inserts dirty per commit. A 1M-document load under --no-verify
                // took 91 s with 4 KB pages and 80 s with 16 KB; 1 KB was slower still. No effect once the file
                // has content.
                try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA page_size = 16384") }
                _ = try queue.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
            }
            try StoreMigrations.migrator.checkNotSuperseded(queue, path: path)
            try StoreMigrations.migrator.migrate(queue)
            self.database = queue
            self.path = path
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// Process-wide SQLite settings, applied once before the first connection opens. Memory statistics
    /// off: they put a global mutex around every SQLite allocation, about 1.4 % of a verified ingest's CPU.
    private static let processSettings: Void = {
        _ = iaplens_sqlite3_disable_memstatus()
    }()

    /// An empty, migrated store in memory (tests).
    public static func inMemory() throws(StoreError) -> Store {
        try Store(path: ":memory:")
    }

    /// Runs SQLite's integrity check; returns the problems found (empty when healthy).
    public func integrityProblems() throws -> [String] {
        let rows = try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        return rows == ["ok"] ? [] : rows
    }
}
