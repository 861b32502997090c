import Foundation
import GRDB

/// The indexes a bulk load drops and builds again at the end: those that serve analysis and `status`, and the
/// unique keys of `notifications` and `renewal_infos` (ingest's own lookups need only the other tables' primary
/// keys, which make every insert idempotent).
///
/// Their keys (document and notification UUIDs, transaction and subscription IDs) arrive in random order, so
/// maintaining them row by row dirties a different page per insert once they outgrow the page cache. For a load
/// larger than the store, ingest drops them and builds them again at the end, sorted, in one pass: a 1M-document
/// load under --no-verify took 80 s maintaining the four secondary indexes and 62 s + 2.5 s rebuilding them. A
/// run killed in between leaves them missing; the next command that takes the store (`ingest`, `analyze`,
/// `report`, `run`) builds them again before anything else.
///
/// While a unique index is missing, its table may hold the same key twice (a notification Apple sent again, a
/// page read twice). Before the index is built, each key keeps the one row the row-by-row writes would have
/// kept: for notifications a verified copy before an unverified one, then the smallest (raw hash, receipt time), as
/// the writer's upsert does;
/// for renewal infos the first written, as its `INSERT OR IGNORE` does. The writer that dropped the keys names
/// the few keys it may have written twice (``BulkLoadKeys``), so only their rows are ranked; without that list
/// (after a killed load) every key is grouped.
///
/// The definitions are exactly those of migrations "v1 raw facts", "v4 unique keys as indexes" and "v5 lineage keys".
enum SecondaryIndexes {
    struct Definition {
        let name: String
        /// `table (columns)`.
        let columns: String
        /// For a unique index: which of a key's rows it keeps when the table holds the key twice.
        let uniqueKey: UniqueKey?
    }

    /// The rows of one key that a unique index keeps: the first in `order`.
    struct UniqueKey {
        let table: String
        let columns: [String]
        let order: String

        /// The key's columns, comma-separated.
        var key: String { columns.joined(separator: ", ") }

        /// Deletes, for every key held by more than one row, all its rows but the first in `order`. Only the keys
        /// `candidates` selects are ranked; the default finds every repeated key with one grouping pass.
        func deduplication(candidates: String? = nil) -> String {
            let keys = candidates ?? "SELECT \(key) FROM \(table) GROUP BY \(key) HAVING count(*) > 1"
            return """
                DELETE FROM \(table) WHERE rowid IN (
                    SELECT rowid FROM (
                        SELECT rowid, row_number() OVER (PARTITION BY \(key) ORDER BY \(order)) AS rank
                        FROM \(table)
                        WHERE (\(key)) IN (\(keys))
                    )
                    WHERE rank > 1
                )
                """
        }
    }

    static let definitions: [Definition] = [
        Definition(
            name: "notifications_by_id", columns: "notifications (lineage_id, notification_id)",
            uniqueKey: UniqueKey(
                table: "notifications", columns: ["lineage_id", "notification_id"],
                order: "is_verified DESC, raw_sha256, coalesce(received_at, 9223372036854775807), rowid")),
        Definition(
            name: "renewal_infos_by_key", columns: "renewal_infos (document_id, original_transaction_id)",
            uniqueKey: UniqueKey(
                table: "renewal_infos", columns: ["document_id", "original_transaction_id"], order: "rowid")),
        Definition(name: "documents_by_document_id", columns: "documents (document_id)", uniqueKey: nil),
        Definition(
            name: "notifications_by_transaction", columns: "notifications (transaction_id, notification_type)",
            uniqueKey: nil),
        // Not random, but one more b-tree insert per notification for an index only analysis reads.
        Definition(
            name: "notifications_by_type", columns: "notifications (notification_type, document_time)",
            uniqueKey: nil),
        Definition(
            name: "transactions_by_original", columns: "transactions (original_transaction_id, purchase_date)",
            uniqueKey: nil),
        Definition(
            name: "renewal_infos_by_subscription", columns: "renewal_infos (original_transaction_id, document_time)",
            uniqueKey: nil),
    ]

    /// True while the unique key of `notifications` exists; without it (a bulk load) the writer inserts plainly.
    static func isNotificationKeyPresent(_ db: Database) throws -> Bool {
        try db.indexExists("notifications_by_id")
    }

    /// Drops them (bulk load).
    static func drop(_ db: Database) throws {
        for index in definitions {
            try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)")
        }
    }

    /// Builds whichever are missing; true when any was.
    ///
    /// - Parameter suspects: the keys that may be repeated, when the load that dropped the indexes kept the list
    ///   (``BulkLoadKeys``); nil when nothing is known (the first command after a killed load).
    @discardableResult
    static func ensure(_ db: Database, suspects: BulkLoadKeys.Suspects? = nil) throws -> Bool {
        let missing = try definitions.filter { try !db.indexExists($0.name) }
        if missing.isEmpty { return false }
        // Each build sorts its keys within the page cache's budget, then merges: an 8 MB budget keeps the
        // sort from raising the load's peak memory, at no measurable cost in time.
        // The sorts run on this thread alone (SQLite's default, `PRAGMA threads = 0`). SQLite's worker threads made the
        // builds of a 1M-document store shorter on two cores but cost more CPU
        // in all: `iaplens-bench write-archive` measured 8.7 µs per document with two and 6.8 with one
        // (Documentation/Performance.md, "Ingest's text bound in place").
        let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2_000
        try db.execute(sql: "PRAGMA cache_size = -8192")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
        // The smaller cache frees the load's pages, and each sort its buffers, but glibc keeps both (and the ingest
        // pipeline's freed buffers) in the heap: at 1M real-shaped notifications the index builds held 162 MB
        // between sorts and peaked at 187 MB (Documentation/Performance.md "Analyze and report").
        MemoryRelease.returnFreedMemory()
        for index in missing {
            defer { MemoryRelease.returnFreedMemory() }
            guard let uniqueKey = index.uniqueKey else {
                try db.execute(sql: "CREATE INDEX \(index.name) ON \(index.columns)")
                continue
            }
            // Known suspects are settled first, by a look at their rows alone (1M store, 7,600 repeated
            // notifications: 0.45 s instead of a failed build and a grouping of every key, 1.2 s).
            if let keys = suspects?.keys[index.name], !keys.isEmpty {
                let candidates = try suspectTable(uniqueKey, keys, in: db)
                try db.execute(sql: uniqueKey.deduplication(candidates: "SELECT * FROM \(candidates)"))
                try db.execute(sql: "DROP TABLE \(candidates)")
            }
            // Without a list the build is tried first, since most loads hold no two copies of a key; only when it
            // meets one do the extra rows go (1M store: 0.8 s for both keys, against 2.7 s deduplicating first).
            // With a list it cannot fail, unless the list missed a key; then the same fallback repairs it.
            do {
                try db.execute(sql: "CREATE UNIQUE INDEX \(index.name) ON \(index.columns)")
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                try db.execute(sql: uniqueKey.deduplication())
                try db.execute(sql: "CREATE UNIQUE INDEX \(index.name) ON \(index.columns)")
            }
        }
        return true
    }

    /// A temporary table holding `keys` (values in the order of the key's columns); returns its name.
    private static func suspectTable(_ uniqueKey: UniqueKey, _ keys: [[String]], in db: Database) throws -> String {
        let name = "temp.suspect_keys_\(uniqueKey.table)"
        try db.execute(
            sql: """
                CREATE TABLE \(name) (\(uniqueKey.columns.map { "\($0) TEXT" }.joined(separator: ", ")),
                    PRIMARY KEY (\(uniqueKey.key))) WITHOUT ROWID
                """)
        let placeholders = Array(repeating: "?", count: uniqueKey.columns.count).joined(separator: ", ")
        let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO \(name) VALUES (\(placeholders))")
        for key in keys { try insert.execute(arguments: StatementArguments(key)) }
        return name
    }

    /// Names of the missing ones.
    static func missing(_ db: Database) throws -> [String] {
        try definitions.map(\.name).filter { try !db.indexExists($0) }
    }
}

extension Database {
    fileprivate func indexExists(_ name: String) throws -> Bool {
        try Bool.fetchOne(
            self, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'index' AND name = ?", arguments: [name])
            ?? false
    }
}
