/// The closed vocabularies of the store's rows. Each is also a `CHECK` list of the schema: PostgreSQL's is written
/// from ``allCases`` (`PostgresSchema`), SQLite's migrations hold their text, and `StoreSchemaParityTests` checks
/// that both still list exactly these values.

/// Which of Apple's formats a fact came in: V2 (signed JWS) or V1 (unsigned JSON bodies of old archives).
public enum PayloadFormat: String, Sendable, CaseIterable {
    case v2
    case v1
}

/// What a transaction version came from.
public enum TransactionSource: String, Sendable, CaseIterable {
    case v2Notification = "v2_notification"
    case v1Notification = "v1_notification"
    case refundHistory = "refund_history"
    case orderLookup = "order_lookup"
    case transactionHistory = "transaction_history"

    /// The values migration v1 knew (PostgreSQL's first `CHECK` list, frozen as released).
    static let namesOfV1 = "'v2_notification', 'v1_notification', 'refund_history', 'order_lookup'"
}

/// What a stored document is: a notification line, or one entry of a page.
public enum DocumentKind: String, Sendable, CaseIterable {
    case v2Notification = "v2_notification"
    case notificationHistoryEntry = "notification_history_entry"
    case v1Notification = "v1_notification"
    case refundHistoryEntry = "refund_history_entry"
    case orderLookupEntry = "order_lookup_entry"
    case transactionHistoryEntry = "transaction_history_entry"
    /// A line that could not be read far enough to tell (quarantined).
    case unknown
    /// An Apple financial report refused as a whole (recorded at line 0 when quarantined).
    case appleFinancialReport = "apple_financial_report"
    /// A row of an Apple financial report that could not be read (only quarantined rows are documents; loaded rows
    /// live in `apple_report_rows`).
    case appleFinancialReportRow = "apple_financial_report_row"
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// `'a', 'b', …`: the values as a SQL list for a `CHECK (column IN (…))`.
    static var sqlList: String { allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ") }

    /// The value stored as `text`; throws when a store holds a value this build does not know (its `CHECK` makes that
    /// impossible unless the schema was changed by hand).
    static func stored(_ text: String?, column: String) throws -> Self {
        guard let text, let value = Self(rawValue: text) else {
            throw StoreError.queryFailed(reason: "\(column) holds \(text ?? "NULL"), which this iaplens does not know")
        }
        return value
    }
}

/// What `consumption` recorded for a request (`consumption_answers.result`; Documentation/Fetching.md "Consumption
/// requests: at most once"). `sending` is the intent written before the body leaves; a request in `sending`,
/// `answered`, `refused` or `inDoubt` is never sent again.
public enum ConsumptionAnswerResult: String, Sendable, CaseIterable {
    case answered
    case refused
    case skippedNoFacts = "skipped_no_facts"
    case skippedNoConsent = "skipped_no_consent"
    case sending
    case inDoubt = "in_doubt"

    /// The results that end a request: it is never sent again.
    public static let final: [ConsumptionAnswerResult] = [.answered, .refused, .sending, .inDoubt]
    /// The results of a body Apple received an answer for.
    public static let sent: [ConsumptionAnswerResult] = [.answered, .refused]

    /// `'a', 'b'`: a list of results for `IN (…)`.
    public static func sqlList(of results: [ConsumptionAnswerResult]) -> String {
        results.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    }
}
