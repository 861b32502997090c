/// Everything the report writers need for one month folder `reports/<YYYY-MM>/`.
public struct MonthReport: Sendable, Equatable {
    /// The month, `YYYY-MM` (UTC).
    public let month: String
    /// The CSV tables of the month, in this order: churn, expiration_intents, billing_retry, refunds,
    /// consumable_losses, flagged_accounts, reconciliation, order_lookups.
    public let tables: [ReportTable]
    /// One evidence timeline per flagged account (same order as `flagged_accounts.csv`).
    public let flaggedTimelines: [FlaggedAccountTimeline]
    /// True when the month has no counted activity (written only because `--month` asked for it).
    public let isEmpty: Bool

    /// Creates a month report.
    public init(month: String, tables: [ReportTable], flaggedTimelines: [FlaggedAccountTimeline], isEmpty: Bool) {
        self.month = month
        self.tables = tables
        self.flaggedTimelines = flaggedTimelines
        self.isEmpty = isEmpty
    }

    /// The table with the given file name, if present.
    public func table(_ name: String) -> ReportTable? {
        tables.first { $0.name == name }
    }
}

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
    public init(time: Int64, kind: String, transactionId: String, productId: String, amountMilli: Int64?, currency: String) {
        self.time = time
        self.kind = kind
        self.transactionId = transactionId
        self.productId = productId
        self.amountMilli = amountMilli
        self.currency = currency
    }
}
