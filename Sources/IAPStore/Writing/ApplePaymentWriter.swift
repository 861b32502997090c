/// Loads Apple's payment summaries into the store, one file per transaction (Documentation/Inputs.md "Apple's payment
/// summary"). One summary per fiscal month: a paid summary replaces a pending one of its month (Apple paid since the
/// pending one was downloaded); any other second summary of a month is refused, naming both files.
public struct ApplePaymentWriter: Sendable {
    /// A summary read whole.
    public struct Summary: Sendable {
        public var title: String
        /// `YYYY-MM`.
        public var fiscalMonth: String
        public var isPending: Bool
        public var rows: [ApplePaymentRow]

        public init(title: String, fiscalMonth: String, isPending: Bool, rows: [ApplePaymentRow]) {
            self.title = title
            self.fiscalMonth = fiscalMonth
            self.isPending = isPending
            self.rows = rows
        }
    }

    /// What became of one file.
    public enum Outcome: Sendable, Equatable {
        /// Loaded; `replaced`: the path of the pending summary it replaced.
        case loaded(rows: Int, replaced: String?)
        /// The same summary as the one loaded from `path` (the same fiscal month, title, state and rows): recorded as
        /// read, nothing loaded twice and nothing quarantined.
        case copy(of: String)
        case refused(message: String)
    }

    private let store: any StoreEngine

    public init(store: any StoreEngine) {
        self.store = store
    }

    public func load(_ file: AppleReportWriter.File, _ summary: Summary) throws -> Outcome {
        do {
            return try store.write { connection in
                try AppleReportWriter.register(file, in: connection)
                var replaced: String?
                if let loaded = try connection.row(
                    "SELECT file_sha256, path, is_pending, title FROM apple_payment_summaries WHERE fiscal_month = ?",
                    [.text(summary.fiscalMonth)])
                {
                    let path = loaded[1].text ?? ""
                    if try Self.isSame(summary, asLoaded: loaded, in: connection) { throw Copy(originalPath: path) }
                    guard loaded[2].integer == 1 else {
                        throw Refusal(
                            message:
                                "The payment summary \(file.path) is for fiscal month \(summary.fiscalMonth), whose paid summary "
                                + "is already loaded from \(path); nothing of it was loaded. Keep one summary per fiscal month."
                        )
                    }
                    replaced = path
                    try connection.execute("DELETE FROM apple_payment_rows WHERE file_sha256 = ?", [loaded[0]])
                    try connection.execute("DELETE FROM apple_payment_summaries WHERE file_sha256 = ?", [loaded[0]])
                }
                try connection.execute(
                    """
                    INSERT INTO apple_payment_summaries (file_sha256, path, title, fiscal_month, is_pending, row_count, run_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(file.sha256), .text(file.path), .text(summary.title), .text(summary.fiscalMonth),
                        SQLValue(summary.isPending), SQLValue(summary.rows.count), .integer(file.runId),
                    ])
                for row in summary.rows {
                    try connection.execute(
                        "INSERT INTO apple_payment_rows (file_sha256, \(ApplePaymentRow.columns)) VALUES (?"
                            + String(repeating: ", ?", count: row.values.count) + ")",
                        [.text(file.sha256)] + row.values)
                }
                try AppleReportWriter.complete(file, documents: 0, in: connection)
                return .loaded(rows: summary.rows.count, replaced: replaced)
            }
        } catch let refusal as Refusal {
            try AppleReportWriter(store: store).refuse(file, reason: .overlappingReport, message: refusal.message)
            return .refused(message: refusal.message)
        } catch let copy as Copy {
            try AppleReportWriter(store: store).recordCopy(file)
            return .copy(of: copy.originalPath)
        }
    }

    /// Whether `summary` repeats the loaded one (`file_sha256, path, is_pending, title`): the same title and state,
    /// and the same rows line by line.
    private static func isSame(_ summary: Summary, asLoaded loaded: SQLRow, in connection: any StoreConnection) throws
        -> Bool
    {
        guard loaded[2].bool == summary.isPending, loaded[3].text == summary.title else { return false }
        let rows = try connection.rows(
            "SELECT \(ApplePaymentRow.columns) FROM apple_payment_rows WHERE file_sha256 = ? ORDER BY line", [loaded[0]]
        )
        let offered = summary.rows.sorted { $0.line < $1.line }
        return rows.count == offered.count && zip(rows, offered).allSatisfy { $0.0.values == $0.1.values }
    }

    private struct Refusal: Error {
        let message: String
    }

    private struct Copy: Error {
        let originalPath: String
    }
}
