import GRDB
import IAPStore

/// What is in the store (`iaplens status`): files, documents by kind/outcome/environment, notification
/// types, quarantine by reason, months covered, and the last run of each stage.
public struct StoreStatus: Sendable, Equatable {
    public struct Count: Sendable, Equatable {
        public let label: String
        public let count: Int
    }
    public struct LastRun: Sendable, Equatable {
        public let command: String
        public let startedAt: String
        public let finishedAt: String?
        public let outcome: String
        public let isVerified: Bool
        public let documentsRead: Int
        public let documentsQuarantined: Int
    }
    public struct QuarantineSample: Sendable, Equatable {
        public let path: String
        public let line: Int
        public let entry: Int
        public let reason: String
        public let message: String
    }

    public var bundleId: String?
    public var filesComplete = 0
    public var filesIncomplete = 0
    public var documentsByKind: [Count] = []
    public var documentsByOutcome: [Count] = []
    public var documentsByEnvironment: [Count] = []
    public var notificationsByType: [Count] = []
    public var quarantineByReason: [Count] = []
    public var duplicates = 0
    public var unverifiedDocuments = 0
    public var transactions = 0
    public var months: [String] = []
    public var lastRuns: [LastRun] = []
    public var quarantineSamples: [QuarantineSample] = []

    /// Reads the status of a store. `quarantineLimit` rows of quarantine detail are included.
    public static func read(from store: Store, quarantineLimit: Int = 0) throws -> StoreStatus {
        try store.database.read { db in
            var status = StoreStatus()
            status.bundleId = try String.fetchOne(db, sql: "SELECT value FROM store_settings WHERE key = 'bundle_id'")
            status.filesComplete = try Int.fetchOne(db, sql: "SELECT count(*) FROM source_files WHERE state = 'complete'") ?? 0
            status.filesIncomplete = try Int.fetchOne(db, sql: "SELECT count(*) FROM source_files WHERE state <> 'complete'") ?? 0
            status.documentsByKind = try counts(db, "SELECT kind, count(*) FROM documents GROUP BY 1 ORDER BY 1")
            status.documentsByOutcome = try counts(db, "SELECT outcome, count(*) FROM documents GROUP BY 1 ORDER BY 1")
            status.documentsByEnvironment = try counts(db, """
                SELECT coalesce(environment, '(unknown)'), count(*) FROM documents GROUP BY 1 ORDER BY 1
                """)
            status.notificationsByType = try counts(db, """
                SELECT format || ' ' || notification_type, count(*) FROM notifications GROUP BY 1 ORDER BY 1
                """)
            status.quarantineByReason = try counts(db, "SELECT reason, count(*) FROM quarantine GROUP BY 1 ORDER BY 1")
            status.duplicates = try Int.fetchOne(db, sql: """
                SELECT count(*) - count(DISTINCT document_id) FROM documents WHERE outcome = 'accepted'
                """) ?? 0
            status.unverifiedDocuments = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM documents WHERE outcome <> 'quarantined' AND is_verified = 0
                """) ?? 0
            status.transactions = try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions") ?? 0
            status.months = try String.fetchAll(db, sql: """
                SELECT DISTINCT strftime('%Y-%m', document_time / 1000, 'unixepoch') FROM documents
                WHERE outcome = 'accepted' AND document_time IS NOT NULL ORDER BY 1
                """)
            status.lastRuns = try Row.fetchAll(db, sql: """
                SELECT command, started_at, finished_at, outcome, is_verified, documents_read, documents_quarantined
                FROM runs WHERE run_id IN (SELECT max(run_id) FROM runs GROUP BY command) ORDER BY command
                """).map { row in
                LastRun(command: row[0], startedAt: row[1], finishedAt: row[2], outcome: row[3], isVerified: row[4],
                        documentsRead: row[5], documentsQuarantined: row[6])
            }
            if quarantineLimit > 0 {
                status.quarantineSamples = try Row.fetchAll(db, sql: """
                    SELECT path, line, entry, reason, message FROM quarantine ORDER BY reason, path, line, entry LIMIT ?
                    """, arguments: [quarantineLimit]).map { row in
                    QuarantineSample(path: row[0], line: row[1], entry: row[2], reason: row[3], message: row[4])
                }
            }
            return status
        }
    }

    private static func counts(_ db: Database, _ sql: String) throws -> [Count] {
        try Row.fetchAll(db, sql: sql).map { Count(label: $0[0], count: $0[1]) }
    }
}
