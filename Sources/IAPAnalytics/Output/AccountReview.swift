/// One decision of the reviews file about an account.
public struct AccountReview: Sendable, Equatable {
    /// `cleared`, `confirmed` or `watch`.
    public let decision: String
    /// Unix milliseconds.
    public let reviewedAt: Int64
    public let reviewer: String
    public let note: String

    public init(decision: String, reviewedAt: Int64, reviewer: String, note: String) {
        self.decision = decision
        self.reviewedAt = reviewedAt
        self.reviewer = reviewer
        self.note = note
    }
}
