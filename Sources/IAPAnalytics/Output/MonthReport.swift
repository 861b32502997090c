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
