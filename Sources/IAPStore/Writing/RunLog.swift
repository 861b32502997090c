import Foundation

/// The `runs` table: one row per stage invocation, so `status` can say what ran last and how it ended,
/// and so `--no-verify` is on record wherever it was used.
public struct RunLog: Sendable {
    private let store: any StoreEngine

    /// The outcome of a run that has not finished: a run in progress, or one whose process died before it could say
    /// how it ended.
    public static let runningOutcome = "running"

    /// Creates a run log.
    public init(store: any StoreEngine) {
        self.store = store
    }

    /// Records the start of a stage and returns its run ID.
    public func begin(command: String, isVerified: Bool, at date: Date = Date()) throws -> Int64 {
        try store.write { connection in
            // `returning` (SQLite 3.35, PostgreSQL): the ID the engine assigned, however it assigns them.
            let id = try connection.integer(
                "INSERT INTO runs (command, started_at, outcome, is_verified) VALUES (?, ?, ?, ?) RETURNING run_id",
                [.text(command), .text(Self.timestamp(date)), .text(Self.runningOutcome), SQLValue(isVerified)])
            guard let id else { throw StoreError.queryFailed(reason: "INSERT INTO runs returned no run_id") }
            return id
        }
    }

    /// Records how a stage ended.
    public func finish(
        runId: Int64, outcome: String, filesRead: Int = 0, filesSkipped: Int = 0, documentsRead: Int = 0,
        documentsQuarantined: Int = 0, message: String? = nil, at date: Date = Date()
    ) throws {
        _ = try store.write { connection in
            try connection.execute(
                """
                UPDATE runs SET finished_at = ?, outcome = ?, files_read = ?, files_skipped = ?, documents_read = ?,
                    documents_quarantined = ?, message = ?
                WHERE run_id = ?
                """,
                [
                    .text(Self.timestamp(date)), .text(outcome), SQLValue(filesRead), SQLValue(filesSkipped),
                    SQLValue(documentsRead), SQLValue(documentsQuarantined), SQLValue(message), .integer(runId),
                ])
        }
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
