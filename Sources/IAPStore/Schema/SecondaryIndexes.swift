import Foundation
import GRDB

/// The indexes on the fact tables that serve analysis and `status`, not ingest's own lookups (ingest needs
/// only the primary keys, which make every insert idempotent).
///
/// Their keys (document IDs, transaction and subscription IDs) arrive in random order, so maintaining them
/// row by row dirties a different page per insert once they outgrow the page cache. For a load larger than
/// the store, ingest drops them and builds them again at the end, sorted, in one pass: a 1M-document load
/// under --no-verify took 80 s maintaining them and 62 s + 2.5 s rebuilding them. A run killed in between
/// leaves them missing; the next command that takes the store (`ingest`, `analyze`, `report`, `run`) builds
/// them again before anything else.
///
/// The definitions are exactly those of migration "v1 raw facts".
enum SecondaryIndexes {
    static let definitions: [(name: String, columns: String)] = [
        ("documents_by_document_id", "documents (document_id)"),
        ("notifications_by_transaction", "notifications (transaction_id, notification_type)"),
        // Not random, but one more b-tree insert per notification for an index only analysis reads.
        ("notifications_by_type", "notifications (notification_type, document_time)"),
        ("transactions_by_original", "transactions (original_transaction_id, purchase_date)"),
        ("renewal_infos_by_subscription", "renewal_infos (original_transaction_id, document_time)"),
    ]

    /// Drops them (bulk load).
    static func drop(_ db: Database) throws {
        for index in definitions {
            try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)")
        }
    }

    /// Builds whichever are missing; true when any was.
    @discardableResult
    static func ensure(_ db: Database) throws -> Bool {
        let missing = try definitions.filter { try !db.indexExists($0.name) }
        if missing.isEmpty { return false }
        // Each build sorts its keys within the page cache's budget, then merges: an 8 MB budget keeps the
        // sort from raising the load's peak memory, at no measurable cost in time.
        // The sorts may use every core: the five indexes of a 1M-document store took 2.2 s on one thread and
        // 1.75 s on two (the cores are otherwise idle by now; SQLite's own worker threads, `PRAGMA threads`).
        let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2_000
        let threads = try Int.fetchOne(db, sql: "PRAGMA threads") ?? 0
        try db.execute(sql: "PRAGMA cache_size = -8192")
        try db.execute(sql: "PRAGMA threads = \(ProcessInfo.processInfo.activeProcessorCount)")
        defer {
            try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)")
            try? db.execute(sql: "PRAGMA threads = \(threads)")
        }
        for index in missing {
            try db.execute(sql: "CREATE INDEX \(index.name) ON \(index.columns)")
        }
        return true
    }

    /// Names of the missing ones.
    static func missing(_ db: Database) throws -> [String] {
        try definitions.map(\.name).filter { try !db.indexExists($0) }
    }
}

extension Database {
    fileprivate func indexExists(_ name: String) throws -> Bool {
        try Bool.fetchOne(self, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'index' AND name = ?", arguments: [name]) ?? false
    }
}
