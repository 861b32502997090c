import IAPStore

/// A `CONSUMPTION_REQUEST` as the `consumption_requests` mart holds it (Documentation/Pipeline.md "Answering consumption
/// requests").
public struct ConsumptionRequest: Sendable, Equatable {
    public let notificationId: String
    public let transactionId: String
    public let signedAtMs: Int64
    public let accountId: String?
    /// Documentation/Reports.md product type (`auto_renewable`, `consumable`, …); nil when the store lacks the transaction.
    public let productType: String?
    /// The flag rules the account met in the request's window, `;`-separated; empty when none.
    public let rules: String
    /// `refunded` / `declined` when Apple decided after the request; nil while open.
    public let decision: String?

    public init(
        notificationId: String, transactionId: String, signedAtMs: Int64, accountId: String?, productType: String?,
        rules: String, decision: String?
    ) {
        self.notificationId = notificationId
        self.transactionId = transactionId
        self.signedAtMs = signedAtMs
        self.accountId = accountId
        self.productType = productType
        self.rules = rules
        self.decision = decision
    }

    /// Requests whose intent to send a run recorded and never resolved (it stopped between sending and recording).
    static func leftSending(in store: any StoreEngine) throws -> [(notificationId: String, transactionId: String)] {
        try store.read { connection in
            try connection.rows(
                "SELECT notification_id, transaction_id FROM consumption_answers WHERE result = ? ORDER BY notification_id",
                [.text(ConsumptionAnswerResult.sending.rawValue)]
            ).map { ($0[0].text ?? "", $0[1].text ?? "") }
        }
    }

    /// Consumption requests with no verified copy in the store (accepted under `--no-verify`): anyone could have
    /// written them, so they are never answered.
    static func unverifiedNotifications(in store: any StoreEngine) throws -> Set<String> {
        try store.read { connection in
            Set(try connection.rows(
                """
                SELECT r.notification_id FROM consumption_requests r
                WHERE NOT EXISTS (
                    SELECT 1 FROM documents d
                    WHERE d.document_id = r.notification_id AND d.outcome = 'accepted' AND d.is_verified = 1)
                """).compactMap { $0[0].text })
        }
    }

    /// Every request of the mart no answer has been recorded for, oldest first.
    static func unanswered(in store: any StoreEngine) throws -> [ConsumptionRequest] {
        try store.read { connection in
            try connection.rows("""
                SELECT notification_id, transaction_id, signed_at_ms, account_id, product_type, rules, decision
                FROM consumption_requests
                WHERE notification_id NOT IN (
                    SELECT notification_id FROM consumption_answers
                    WHERE result IN (\(ConsumptionAnswerResult.sqlList(of: ConsumptionAnswerResult.final)))
                )
                ORDER BY signed_at_ms, notification_id
                """).map { row in
                ConsumptionRequest(
                    notificationId: row[0].text ?? "", transactionId: row[1].text ?? "", signedAtMs: row[2].integer ?? 0,
                    accountId: row[3].text, productType: row[4].text, rules: row[5].text ?? "", decision: row[6].text)
            }
        }
    }
}
