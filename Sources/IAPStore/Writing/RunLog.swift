import Foundation
import GRDB

/// The `runs` table: one row per stage invocation, so `status` can say what ran last and how it ended,
/// and so `--no-verify` is on record wherever it was used.
public struct RunLog: Sendable {
    private let store: Store

    /// Creates a run log.
    public init(store: Store) {
        self.store = store
    }

    /// Records the start of a stage and returns its run ID.
    public func begin(command: String, isVerified: Bool, at date: Date = Date()) throws -> Int64 {
        try store.database.write { db in
            try db.execute(
                sql: "INSERT INTO runs (command, started_at, outcome, is_verified) VALUES (?, ?, 'running', ?)",
                arguments: [command, Self.timestamp(date), isVerified])
            return db.lastInsertedRowID
        }
    }

    /// Records how a stage ended.
    public func finish(
        runId: Int64, outcome: String, filesRead: Int = 0, filesSkipped: Int = 0, documentsRead: Int = 0,
        documentsQuarantined: Int = 0, message: String? = nil, at date: Date = Date()
    ) throws {
        try store.database.write { db in
            try db.execute(
                sql: """
                    UPDATE runs SET finished_at = ?, outcome = ?, files_read = ?, files_skipped = ?, documents_read = ?,
                        documents_quarantined = ?, message = ?
                    WHERE run_id = ?
                    """,
                arguments: [
                    Self.timestamp(date), outcome, filesRead, filesSkipped, documentsRead, documentsQuarantined, message,
                    runId,
                ])
        }
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
