/// The transaction field columns in one order, shared by `transaction_versions` and `transactions`
/// so the two tables can never drift apart in the writer. `BoundStatement` binds and reads fields in this
/// order.
enum TransactionColumns {
    static let names: [String] = [
        "original_transaction_id", "web_order_line_item_id", "bundle_id", "product_id",
        "subscription_group_identifier", "purchase_date", "original_purchase_date", "expires_date", "quantity", "type",
        "app_account_token", "in_app_ownership_type", "signed_date", "revocation_date", "revocation_reason",
        "revocation_type", "revocation_percentage", "is_upgraded", "is_trial_period", "offer_type",
        "offer_discount_type", "storefront", "transaction_reason", "currency", "price",
    ]
}
