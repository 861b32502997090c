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
    /// Whether the stored copy of the request was verified: an unverified copy (`--no-verify`) is never answered,
    /// also when it reuses the ID of a genuine request.
    public let isVerified: Bool

    public init(
        notificationId: String, transactionId: String, signedAtMs: Int64, accountId: String?, productType: String?,
        rules: String, decision: String?, isVerified: Bool = true
    ) {
        self.notificationId = notificationId
        self.transactionId = transactionId
        self.signedAtMs = signedAtMs
        self.accountId = accountId
        self.productType = productType
        self.rules = rules
        self.decision = decision
        self.isVerified = isVerified
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

    /// Every request of the mart no answer has been recorded for, oldest first.
    static func unanswered(in store: any StoreEngine) throws -> [ConsumptionRequest] {
        try store.read { connection in
            try connection.rows(
                """
                SELECT notification_id, transaction_id, signed_at_ms, account_id, product_type, rules, decision,
                    is_verified
                FROM consumption_requests
                WHERE notification_id NOT IN (
                    SELECT notification_id FROM consumption_answers
                    WHERE result IN (\(ConsumptionAnswerResult.sqlList(of: ConsumptionAnswerResult.final)))
                )
                ORDER BY signed_at_ms, notification_id, transaction_id
                """
            ).map { row in
                ConsumptionRequest(
                    notificationId: row[0].text ?? "", transactionId: row[1].text ?? "",
                    signedAtMs: row[2].integer ?? 0,
                    accountId: row[3].text, productType: row[4].text, rules: row[5].text ?? "", decision: row[6].text,
                    isVerified: row[7].bool ?? false)
            }
        }
    }
}
