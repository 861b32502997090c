/// The build order of the SQL models: staging → intermediate → marts, and within a layer in the order
/// listed. A model reads other models only through `{{ ref('name') }}` and store tables only through
/// `{{ source('name') }}`; `SQLModelCatalogTests` checks that every `ref` names a model listed above it.
public enum SQLModelCatalog {
    /// Every model, in build order.
    public static let models: [SQLModel] = [
        // MARK: staging (views over the store's tables, filtered to the configured environment)
        SQLModel("stg_store__transactions", .staging, .view),
        SQLModel("stg_store__transaction_versions", .staging, .view),
        SQLModel("stg_store__notifications", .staging, .view),
        SQLModel("stg_store__renewal_infos", .staging, .view),
        SQLModel("stg_store__order_lookups", .staging, .view),
        SQLModel("stg_store__order_lookup_transactions", .staging, .view),
        SQLModel("stg_reference__products", .staging, .view),
        SQLModel("stg_reference__accounts", .staging, .view),
        SQLModel("stg_reference__reviews", .staging, .view),
        SQLModel("stg_store__apple_report_rows", .staging, .view),
        SQLModel("stg_store__apple_report_days", .staging, .view),
        SQLModel("stg_store__apple_reports", .staging, .view),
        SQLModel("stg_store__apple_payment_rows", .staging, .view),

        // MARK: intermediate (TEMP: reused by several marts, never exported)
        SQLModel(
            "int_account_tokens", .intermediate, .temporaryTable,
            // The account in the index too: int_transactions_priced looks up every token, and with the workers'
            // small caches a second fetch from the table per lookup cost about 1 s at 1M (Performance.md
            // "Analyze and report").
            indexes: [.on("int_account_tokens_by_token", ["app_account_token", "account_id"])]),
        SQLModel(
            "int_transactions_priced", .intermediate, .temporaryTable,
            indexes: [
                // The ID first: the lookups and order-lookup joins know only the transaction ID.
                .unique("int_transactions_priced_by_id", ["transaction_id", "lineage_id"]),
                .on("int_transactions_priced_by_subscription", ["original_transaction_id", "purchased_at_ms"]),
            ]),
        SQLModel("int_transaction_accounts", .intermediate, .temporaryView),
        SQLModel(
            "int_refunds", .intermediate, .temporaryTable,
            // flagged_accounts counts each account's refunds before every window's end from this index alone.
            indexes: [.on("int_refunds_by_account", ["account_id", "revoked_at_ms"])]),
        SQLModel(
            "int_refunding_account_transactions", .intermediate, .temporaryTable,
            // By account, then purchase date: int_flag_window_figures reads an account's paid purchases before
            // each window's end from the last entry before it, in this index alone.
            indexes: [
                .on(
                    "int_refunding_account_transactions_by_account",
                    ["account_id", "purchased_at_ms", "paid_purchases_through"])
            ]),
        SQLModel(
            "int_subscription_periods", .intermediate, .temporaryTable,
            indexes: [
                .unique("int_subscription_periods_by_id", ["transaction_id", "lineage_id"]),
                // int_active_subscriptions asks, for each period at each instant, whether a later period of the
                // same subscription covers that instant: a look-up by subscription and purchase time.
                .on("int_subscription_periods_by_subscription", ["original_transaction_id", "purchased_at_ms"]),
            ]),
        // A table, not a view: inlined into int_churn_events, its join to renewal_infos on both key columns led
        // SQLite to probe renewal_infos by subscription for every period (100k: 20 s against 0.2 s).
        SQLModel(
            "int_expirations_notified", .intermediate, .temporaryTable,
            indexes: [.unique("int_expirations_notified_by_id", ["transaction_id", "lineage_id"])]),
        SQLModel(
            "int_churn_events", .intermediate, .temporaryTable,
            indexes: [.unique("int_churn_events_by_id", ["transaction_id", "lineage_id"])]),
        SQLModel("int_billing_episodes", .intermediate, .temporaryTable),
        SQLModel(
            "int_month_boundaries", .intermediate, .temporaryTable,
            indexes: [.on("int_month_boundaries_by_instant", ["at_ms"])]),
        SQLModel("int_subscription_starts", .intermediate, .temporaryTable),
        SQLModel(
            "int_active_subscriptions", .intermediate, .temporaryTable,
            indexes: [.on("int_active_subscriptions_by_instant", ["at_ms", "original_transaction_id"])]),
        SQLModel("int_subscription_base", .intermediate, .temporaryTable),
        SQLModel("int_archive_daily_movements", .intermediate, .temporaryTable),

        // MARK: marts (tables the reports read)
        SQLModel("churn", .marts, .table, grain: ["month", "product_id", "churn_type", "reason"]),
        SQLModel("subscriptions", .marts, .table, grain: ["month", "product_id"]),
        SQLModel("mrr", .marts, .table, grain: ["month", "product_id", "currency"]),
        SQLModel("countries", .marts, .table, grain: ["month", "storefront"]),
        SQLModel("expiration_intents", .marts, .table, grain: ["month", "product_id", "expiration_intent"]),
        SQLModel("billing_retry", .marts, .table, grain: ["month", "product_id"]),
        SQLModel("refunds", .marts, .table, grain: ["month", "product_type", "product_id", "currency"]),
        SQLModel("consumable_losses", .marts, .table, grain: ["month", "product_id", "currency"]),
        SQLModel("reconciliation", .marts, .table, grain: ["month", "currency", "product_type"]),
        SQLModel("looked_up_orders", .marts, .table, grain: ["month", "lookup_id"]),
        SQLModel("apple_reconciliation", .marts, .table, grain: ["month", "product_id", "currency"]),
        SQLModel("apple_payments", .marts, .table, grain: ["fiscal_month", "region", "currency"]),
        SQLModel("daily_money", .marts, .table, grain: ["day", "currency"]),
        SQLModel("archive_months", .marts, .table, grain: ["month"]),
        SQLModel("report_months", .marts, .table, grain: ["month"]),
        SQLModel("cohorts", .marts, .table, grain: ["cohort_month", "months_since"]),
        // The flag rules' inputs (TEMP), here because their windows are the observed months report_months gives.
        SQLModel("int_flag_windows", .intermediate, .temporaryTable),
        SQLModel(
            "int_flag_window_refunds", .intermediate, .temporaryTable,
            // The burst rule pairs an account's refunds of one window in date order.
            indexes: [.on("int_flag_window_refunds_by_account", ["window_key", "account_id", "revoked_at_ms"])]),
        SQLModel("int_flag_window_figures", .intermediate, .temporaryTable),
        SQLModel("account_flags", .marts, .table, grain: ["window_key", "account_id"]),
        SQLModel("consumption_requests", .marts, .table, grain: ["notification_id", "transaction_id"]),
        SQLModel(
            "int_flag_stakes", .intermediate, .temporaryTable,
            indexes: [.unique("int_flag_stakes_by_month", ["month", "account_id"])]),
        SQLModel("flagged_accounts", .marts, .table, grain: ["month", "account_id"]),
        SQLModel("consumption_request_outcomes", .marts, .table, grain: ["request_id", "transaction_id"]),
        SQLModel(
            "flagged_account_events", .marts, .table,
            grain: ["month", "account_id", "kind", "transaction_id", "event_at_ms"]),
        SQLModel("data_quality", .marts, .table),
    ]

    /// The marts, in build order.
    public static var marts: [SQLModel] {
        models.filter { $0.layer == .marts }
    }

    /// The model named `name`, if the catalog lists one.
    public static func model(named name: String) -> SQLModel? {
        models.first { $0.name == name }
    }
}
