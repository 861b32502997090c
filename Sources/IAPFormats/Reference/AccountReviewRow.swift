/// One row of a reviews file (`account_id,decision,reviewed_at,reviewer,note`): a trust-and-safety decision about an
/// account (Documentation/Reports.md "The review queue").
public struct AccountReviewRow: Sendable, Equatable {
    /// What a reviewer decided.
    public enum Decision: String, Sendable, CaseIterable {
        /// Nothing wrong: kept out of the queue until the account does something new after the review.
        case cleared
        /// Abuse confirmed: the account stays in the queue and its consumption answers ask Apple to decline, even when
        /// no rule holds any more.
        case confirmed
        /// Keep an eye on it: shown in the queue as it is.
        case watch
    }

    public let line: Int
    public let accountId: String
    public let decision: Decision
    /// Unix milliseconds.
    public let reviewedAt: Int64
    public let reviewer: String
    public let note: String

    public init(line: Int, accountId: String, decision: Decision, reviewedAt: Int64, reviewer: String, note: String) {
        self.line = line
        self.accountId = accountId
        self.decision = decision
        self.reviewedAt = reviewedAt
        self.reviewer = reviewer
        self.note = note
    }
}
