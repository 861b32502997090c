/// The history of one flagged account that a trust-and-safety reviewer reads before acting.
public struct FlaggedAccountTimeline: Sendable, Equatable {
    /// The account, as in `flagged_accounts.csv`.
    public let accountId: String
    /// Purchases, refunds, consumption requests and declined refunds of the account up to the window's end,
    /// oldest first (ties by transaction ID).
    public let events: [TimelineEvent]

    /// Creates a timeline.
    public init(accountId: String, events: [TimelineEvent]) {
        self.accountId = accountId
        self.events = events
    }
}

/// One dated event on an account's timeline.
public struct TimelineEvent: Sendable, Equatable {
    /// Unix milliseconds.
    public let time: Int64
    /// `purchase`, `refund`, `refund_reversed`, `refund_declined` or `consumption_request`.
    public let kind: String
    /// The transaction the event is about.
    public let transactionId: String
    /// The product of that transaction.
    public let productId: String
    /// Amount in milliunits of `currency` (gross for a purchase, refund amount for a refund), when known.
    public let amountMilli: Int64?
    /// ISO 4217 code, `XXX` when unpriced.
    public let currency: String

    /// Creates an event.
    public init(
        time: Int64, kind: String, transactionId: String, productId: String, amountMilli: Int64?, currency: String
    ) {
        self.time = time
        self.kind = kind
        self.transactionId = transactionId
        self.productId = productId
        self.amountMilli = amountMilli
        self.currency = currency
    }
}
