/// The file names and headers of Documentation/Reports.md, in one place: analytics fills them, writers print them,
/// tests parse them.
public enum ReportColumns {
    /// The files whose rows are "counted activity" (Documentation/Reports.md "Months written"): a month with a row
    /// in one of them is written by default. Order lookups, flags and consumption requests are not activity. The
    /// `report_months` model unions exactly these marts (`BusinessRulesTests` checks it).
    public static let countedActivityFiles = [
        "churn.csv", "expiration_intents.csv", "billing_retry.csv", "refunds.csv", "consumable_losses.csv",
        "reconciliation.csv",
    ]

    /// `churn.csv`
    public static let churn = ["month", "product_id", "churn_type", "reason", "subscriptions"]
    /// `subscriptions.csv`: the base behind the churn.
    public static let subscriptions = [
        "month", "product_id", "active_start", "new_paid", "churned_voluntary", "churned_involuntary", "churned_other",
        "active_end", "trials_started", "trials_ended", "trials_converted",
    ]
    /// `mrr.csv`: monthly recurring revenue per product and currency at the month's end.
    public static let mrr = ["month", "product_id", "currency", "active_end", "period", "mrr_milli"]
    /// `countries.csv`: the base, refunds and units sold by storefront.
    public static let countries = [
        "month", "storefront", "active_start", "new_paid", "churned_voluntary", "churned_involuntary", "churned_other",
        "active_end", "refunds", "units_sold",
    ]
    /// `cohorts.csv`, at the top of the reports folder: retention by cohort.
    public static let cohortsFileName = "cohorts.csv"
    public static let cohorts = ["cohort_month", "months_since", "cohort_size", "active", "retention_permille"]
    /// `expiration_intents.csv`
    public static let expirationIntents = ["month", "product_id", "expiration_intent", "subscriptions"]
    /// `billing_retry.csv`
    public static let billingRetry = [
        "month", "product_id", "episodes", "recovered", "recovered_in_grace", "expired", "pending",
    ]
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
    /// `flagged_accounts.csv`; `month` (the folder's) last, so that files concatenated across months keep it.
    public static let flaggedAccounts = [
        "account_id", "rules", "refunds_90d", "consumable_refunds_90d", "declined_90d", "lifetime_purchases",
        "lifetime_refunds", "first_refund", "last_refund", "evidence", "month", "queue_status", "first_flagged_month",
        "at_stake_milli", "at_stake_currency", "review",
    ]
    /// `reconciliation.csv`
    public static let reconciliation = [
        "month", "currency", "product_type", "sales", "gross_milli", "refunds", "refunded_milli", "net_milli",
        "est_proceeds_milli", "prior_period_refunds", "prior_period_refunded_milli", "unpriced",
    ]
    /// `apple_reconciliation.csv`: the archive against Apple's financial reports.
    public static let appleReconciliation = [
        "month", "product_id", "currency", "days_covered", "apple_units_sold", "archive_units_sold",
        "apple_units_refunded", "archive_units_refunded", "apple_gross_milli", "archive_gross_milli",
        "apple_refunded_milli", "archive_refunded_milli", "apple_proceeds_milli", "archive_est_proceeds_milli",
        "proceeds_currency", "first_gap_day", "last_gap_day", "status",
    ]
    /// `apple_payments.csv`: Apple's books against Apple's payment, per fiscal month, region and currency.
    public static let applePayments = [
        "fiscal_month", "region", "currency", "period_start", "period_end", "apple_units_sold", "payment_units_sold",
        "apple_earned_milli", "payment_earned_milli", "beginning_balance_milli", "input_tax_milli", "adjustments_milli",
        "withholding_tax_milli", "total_owed_milli", "exchange_rate", "proceeds_milli", "bank_currency", "status",
    ]
    /// `order_lookups.csv` (iaplens's own addition, not in Documentation/Reports.md): looked-up order IDs for trust-and-safety.
    public static let orderLookups = [
        "month", "lookup_id", "order_id", "status", "transactions", "transaction_ids", "refunded_transactions",
        "account_ids", "note",
    ]
    /// `consumption_requests.csv` (iaplens's own addition): each consumption request of the month and what became of it.
    public static let consumptionRequests = [
        "request_id", "transaction_id", "requested_at", "account_id", "rules", "answer", "refund_preference",
        "answered_at", "decision", "month", "apple_status", "apple_error_code", "apple_error_message",
        "consumption_request_reason", "revocation_reason",
    ]

    /// `months.csv`, at the top of the reports folder: what each month folder's figures rest on.
    public static let monthsFileName = "months.csv"
    public static let months = [
        "month", "provisional", "first_archive_day", "last_archive_day", "archive_days", "apple_days_covered",
    ]

    /// One CSV file of a month: its name and header, the mart that holds its rows and the key its rows are sorted
    /// by (byte order for text keys).
    public struct File: Sendable {
        public let name: String
        public let columns: [String]
        public let mart: String
        public let keyColumns: [String]
    }

    /// Every CSV file of a month, in the order the files are written: the one list the readers, the writers and the
    /// tests use.
    public static let files: [File] = [
        File(
            name: "churn.csv", columns: churn, mart: "churn",
            keyColumns: ["month", "product_id", "churn_type", "reason"]),
        File(
            name: "subscriptions.csv", columns: subscriptions, mart: "subscriptions",
            keyColumns: ["month", "product_id"]),
        File(name: "mrr.csv", columns: mrr, mart: "mrr", keyColumns: ["month", "product_id", "currency"]),
        File(name: "countries.csv", columns: countries, mart: "countries", keyColumns: ["month", "storefront"]),
        File(
            name: "expiration_intents.csv", columns: expirationIntents, mart: "expiration_intents",
            keyColumns: ["month", "product_id", "expiration_intent"]),
        File(
            name: "billing_retry.csv", columns: billingRetry, mart: "billing_retry",
            keyColumns: ["month", "product_id"]),
        File(
            name: "refunds.csv", columns: refunds, mart: "refunds",
            keyColumns: ["month", "product_type", "product_id", "currency"]),
        File(
            name: "consumable_losses.csv", columns: consumableLosses, mart: "consumable_losses",
            keyColumns: ["month", "product_id", "currency"]),
        File(
            name: "flagged_accounts.csv", columns: flaggedAccounts, mart: "flagged_accounts", keyColumns: ["account_id"]
        ),
        File(
            name: "reconciliation.csv", columns: reconciliation, mart: "reconciliation",
            keyColumns: ["month", "currency", "product_type"]),
        File(
            name: "apple_reconciliation.csv", columns: appleReconciliation, mart: "apple_reconciliation",
            keyColumns: ["month", "product_id", "currency"]),
        File(
            name: "apple_payments.csv", columns: applePayments, mart: "apple_payments",
            keyColumns: ["fiscal_month", "region", "currency"]),
        File(
            name: "order_lookups.csv", columns: orderLookups, mart: "looked_up_orders",
            keyColumns: ["month", "lookup_id"]),
        File(
            name: "consumption_requests.csv", columns: consumptionRequests, mart: "consumption_request_outcomes",
            keyColumns: ["requested_at", "request_id", "transaction_id"]),
    ]

    /// The key columns that hold integers: ordered as numbers, so no collation applies (PostgreSQL refuses one).
    public static let integerKeyColumns: Set<String> = ["expiration_intent", "months_since"]
}
