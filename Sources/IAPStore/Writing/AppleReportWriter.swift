/// Loads Apple's financial reports into the store, one file per transaction: its rows and the days it covers go in
/// together, or nothing does (a report is believed whole or refused whole: no row of it is quarantined alone). A
/// report whose period overlaps one already loaded from another file is refused whole (the same file is never offered
/// again: ingest skips it by content hash before this), unless it holds the very report loaded (a gzip file and its
/// unpacked copy, say): then it is recorded as read, a copy.
public struct AppleReportWriter: Sendable {
    /// The report file being loaded.
    public struct File: Sendable {
        public var sha256: String
        public var path: String
        public var byteCount: Int64
        public var runId: Int64

        public init(sha256: String, path: String, byteCount: Int64, runId: Int64) {
            self.sha256 = sha256
            self.path = path
            self.byteCount = byteCount
            self.runId = runId
        }
    }

    /// What reading the file found, once its rows were handed to the sink.
    public struct Period: Sendable {
        public var vendorName: String?
        /// First and last covered day, `YYYY-MM-DD`; nil when the file gives no period (no preamble, no rows).
        public var days: [String]?

        public init(vendorName: String?, days: [String]?) {
            self.vendorName = vendorName
            self.days = days
        }
    }

    /// What became of one file.
    public enum Outcome: Sendable, Equatable {
        case loaded(rows: Int, firstDay: String, lastDay: String)
        /// The same report as one loaded earlier from `path` (the same period, vendor and rows, line by line):
        /// recorded as read, nothing loaded twice and nothing quarantined.
        case copy(of: String)
        /// Refused whole, recorded in the quarantine with this reason and message.
        case refused(reason: QuarantineReason, message: String)
    }

    /// Receives the rows of one file as they are read; writes them in groups (one round trip per group on PostgreSQL).
    public final class Sink {
        fileprivate let connection: any StoreConnection
        fileprivate let file: File
        fileprivate var pending: [AppleReportRow] = []
        fileprivate(set) var rows = 0

        fileprivate init(connection: any StoreConnection, file: File) {
            self.connection = connection
            self.file = file
        }

        /// Adds a row.
        public func add(_ row: AppleReportRow) throws {
            pending.append(row)
            rows += 1
            if pending.count >= 200 { try flush() }
        }

        fileprivate func flush() throws {
            guard !pending.isEmpty else { return }
            let placeholders = Array(
                repeating: "(?, " + Array(repeating: "?", count: 15).joined(separator: ", ") + ")", count: pending.count
            )
            try connection.execute(
                "INSERT INTO apple_report_rows (file_sha256, \(AppleReportRow.columns)) VALUES \(placeholders.joined(separator: ", "))",
                pending.flatMap { [SQLValue.text(file.sha256)] + $0.values })
            pending.removeAll(keepingCapacity: true)
        }
    }

    private let store: any StoreEngine

    public init(store: any StoreEngine) {
        self.store = store
    }

    /// Loads one report: `read` hands every row to the sink and returns the period. A refusal is recorded in its own
    /// transaction after the load's was rolled back, so the file counts as read and is not offered again.
    public func load(_ file: File, read: (Sink) throws -> Period) throws -> Outcome {
        do {
            return try store.write { connection in
                try Self.register(file, in: connection)
                try connection.execute(
                    """
                    INSERT INTO apple_reports (file_sha256, path, period_start, period_end, row_count, rejected_rows, run_id)
                    VALUES (?, ?, '', '', 0, 0, ?)
                    """,
                    [.text(file.sha256), .text(file.path), .integer(file.runId)])
                let sink = Sink(connection: connection, file: file)
                let period = try read(sink)
                try sink.flush()
                guard let days = period.days, let first = days.first, let last = days.last else {
                    throw Refusal(
                        reason: .badReport,
                        message:
                            "The financial report \(file.path) holds no rows and names no period (Start Date, End Date), so it covers no day."
                    )
                }
                if let original = try Self.loadedReport(
                    sameAs: file, period: period, first: first, last: last, rows: sink.rows, in: connection)
                {
                    throw Copy(originalPath: original)
                }
                if let other = try connection.row(
                    """
                    SELECT apple_reports.path, min(apple_report_days.day), max(apple_report_days.day)
                    FROM apple_report_days JOIN apple_reports USING (file_sha256)
                    WHERE apple_report_days.day >= ? AND apple_report_days.day <= ?
                    GROUP BY apple_reports.path ORDER BY 2 LIMIT 1
                    """, [.text(first), .text(last)])
                {
                    throw Refusal(
                        reason: .overlappingReport,
                        message:
                            "The financial report \(file.path) (\(first) to \(last)) overlaps \(other[0].text ?? "") "
                            + "(loaded earlier, \(other[1].text ?? "") to \(other[2].text ?? "") in common); nothing of it was loaded. "
                            + "Keep one file per period.")
                }
                var start = 0
                while start < days.count {
                    let chunk = days[start..<min(start + 300, days.count)]
                    try connection.execute(
                        "INSERT INTO apple_report_days (day, file_sha256) VALUES "
                            + Array(repeating: "(?, ?)", count: chunk.count).joined(separator: ", "),
                        chunk.flatMap { [SQLValue.text($0), .text(file.sha256)] })
                    start += chunk.count
                }
                try connection.execute(
                    """
                    UPDATE apple_reports SET vendor_name = ?, period_start = ?, period_end = ?, row_count = ?, rejected_rows = ?
                    WHERE file_sha256 = ?
                    """,
                    [
                        SQLValue(period.vendorName), .text(first), .text(last), SQLValue(sink.rows), .integer(0),
                        .text(file.sha256),
                    ])
                try Self.complete(file, documents: 0, in: connection)
                return .loaded(rows: sink.rows, firstDay: first, lastDay: last)
            }
        } catch let refusal as Refusal {
            try refuse(file, reason: refusal.reason, message: refusal.message)
            return .refused(reason: refusal.reason, message: refusal.message)
        } catch let copy as Copy {
            try recordCopy(file)
            return .copy(of: copy.originalPath)
        }
    }

    /// The path of the loaded report that `file` repeats: the same period and vendor, as many rows, and no row of
    /// `file` (inserted under its own hash in this transaction) missing from it. Rows are keyed by line, so equal
    /// counts and no row missing mean the same rows.
    private static func loadedReport(
        sameAs file: File, period: Period, first: String, last: String, rows: Int, in connection: any StoreConnection
    ) throws -> String? {
        let candidates = try connection.rows(
            """
            SELECT file_sha256, path, vendor_name FROM apple_reports
            WHERE period_start = ? AND period_end = ? AND row_count = ? AND file_sha256 <> ?
            """, [.text(first), .text(last), SQLValue(rows), .text(file.sha256)])
        for candidate in candidates where candidate[2].text == period.vendorName {
            let differing = try connection.row(
                """
                SELECT count(*) FROM (
                    SELECT \(AppleReportRow.columns) FROM apple_report_rows WHERE file_sha256 = ?
                    EXCEPT
                    SELECT \(AppleReportRow.columns) FROM apple_report_rows WHERE file_sha256 = ?
                ) AS differing
                """, [.text(file.sha256), candidate[0]])
            if differing?[0].integer == 0 { return candidate[1].text ?? "" }
        }
        return nil
    }

    /// Records a file that repeats a loaded report or summary: read (skipped next time by its hash), nothing loaded,
    /// nothing quarantined.
    func recordCopy(_ file: File) throws {
        try store.write { connection in
            try Self.register(file, in: connection)
            try Self.complete(file, documents: 0, in: connection)
        }
    }

    /// Records a file refused whole: read (skipped next time by its hash), one quarantined document at line 0.
    public func refuse(_ file: File, reason: QuarantineReason, message: String, excerpt: String = "") throws {
        try store.write { connection in
            try Self.register(file, in: connection)
            try Self.quarantine(
                file: file, line: 0, kind: .appleFinancialReport, reason: reason, message: message, excerpt: excerpt,
                in: connection)
            try Self.complete(file, documents: 1, in: connection)
        }
    }

    private struct Refusal: Error {
        let reason: QuarantineReason
        let message: String
    }

    private struct Copy: Error {
        let originalPath: String
    }

    static func register(_ file: File, in connection: any StoreConnection) throws {
        try connection.execute(
            "INSERT INTO source_files (file_sha256, path, byte_count, state, first_run_id) VALUES (?, ?, ?, 'reading', ?)",
            [.text(file.sha256), .text(file.path), .integer(file.byteCount), .integer(file.runId)])
    }

    static func complete(_ file: File, documents: Int, in connection: any StoreConnection) throws {
        try connection.execute(
            "UPDATE source_files SET state = 'complete', documents = ?, completed_run_id = ? WHERE file_sha256 = ?",
            [SQLValue(documents), .integer(file.runId), .text(file.sha256)])
        try StoreSettings.bumpDataVersion(connection)
    }

    fileprivate static func quarantine(
        file: File, line: Int, kind: DocumentKind, reason: QuarantineReason, message: String, excerpt: String,
        in connection: any StoreConnection
    ) throws {
        try connection.execute(
            """
            INSERT INTO documents (file_sha256, line, entry, kind, outcome, document_id, environment, document_time, is_verified)
            VALUES (?, ?, 0, ?, 'quarantined', NULL, NULL, NULL, 0)
            """,
            [.text(file.sha256), SQLValue(line), .text(kind.rawValue)])
        try connection.execute(
            "INSERT INTO quarantine (file_sha256, line, entry, path, reason, message, excerpt) VALUES (?, ?, 0, ?, ?, ?, ?)",
            [
                .text(file.sha256), SQLValue(line), .text(file.path), .text(reason.rawValue), .text(message),
                .text(excerpt),
            ])
    }
}
