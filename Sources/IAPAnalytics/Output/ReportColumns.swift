/// The file names and headers of REPORTS.md, in one place: analytics fills them, writers print them,
/// tests parse them.
public enum ReportColumns {
    /// `churn.csv`
    public static let churn = ["month", "product_id", "churn_type", "reason", "subscriptions"]
    /// `expiration_intents.csv`
    public static let expirationIntents = ["month", "product_id", "expiration_intent", "subscriptions"]
    /// `billing_retry.csv`
    public static let billingRetry = ["month", "product_id", "episodes", "recovered", "recovered_in_grace", "expired", "pending"]
    /// `refunds.csv`
    public static let refunds = [
        "month", "product_type", "product_id", "currency", "refunds", "refunded_gross_milli", "from_notifications",
        "from_lookups_only", "unpriced",
    ]
    /// `consumable_losses.csv`
    public static let consumableLosses = [
        "month", "product_id", "currency", "refunds", "refunded_gross_milli", "lost_proceeds_milli",
        "after_consumption_request", "declined", "reversed",
    ]
    /// `flagged_accounts.csv`
    public static let flaggedAccounts = [
        "account_id", "rules", "refunds_90d", "consumable_refunds_90d", "declined_90d", "lifetime_purchases",
        "lifetime_refunds", "first_refund", "last_refund", "evidence",
    ]
    /// `reconciliation.csv`
    public static let reconciliation = [
        "month", "currency", "product_type", "sales", "gross_milli", "refunds", "refunded_milli", "net_milli",
        "est_proceeds_milli", "prior_period_refunds", "prior_period_refunded_milli", "unpriced",
    ]
    /// `order_lookups.csv` (iaplens's own addition, not in REPORTS.md): looked-up order IDs for trust-and-safety.
    public static let orderLookups = [
        "month", "lookup_id", "order_id", "status", "transactions", "transaction_ids", "refunded_transactions",
        "account_ids", "note",
    ]

    /// File name → header, in the order the files are written.
    public static let files: [(name: String, columns: [String])] = [
        ("churn.csv", churn),
        ("expiration_intents.csv", expirationIntents),
        ("billing_retry.csv", billingRetry),
        ("refunds.csv", refunds),
        ("consumable_losses.csv", consumableLosses),
        ("flagged_accounts.csv", flaggedAccounts),
        ("reconciliation.csv", reconciliation),
        ("order_lookups.csv", orderLookups),
    ]
}
