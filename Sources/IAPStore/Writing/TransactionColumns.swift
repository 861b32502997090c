import GRDB

/// The transaction field columns in one order, shared by `transaction_versions` and `transactions`
/// so the two tables can never drift apart in the writer.
enum TransactionColumns {
    static let names: [String] = [
        "original_transaction_id", "web_order_line_item_id", "bundle_id", "product_id",
        "subscription_group_identifier", "purchase_date", "original_purchase_date", "expires_date", "quantity", "type",
        "app_account_token", "in_app_ownership_type", "signed_date", "revocation_date", "revocation_reason",
        "revocation_type", "revocation_percentage", "is_upgraded", "is_trial_period", "offer_type",
        "offer_discount_type", "storefront", "transaction_reason", "currency", "price",
    ]

    /// Values in `names` order.
    static func values(_ fields: TransactionFields) -> [(any DatabaseValueConvertible)?] {
        [
            fields.originalTransactionId, fields.webOrderLineItemId, fields.bundleId, fields.productId,
            fields.subscriptionGroupIdentifier, fields.purchaseDate, fields.originalPurchaseDate, fields.expiresDate,
            fields.quantity, fields.type, fields.appAccountToken, fields.inAppOwnershipType, fields.signedDate,
            fields.revocationDate, fields.revocationReason, fields.revocationType, fields.revocationPercentage,
            fields.isUpgraded, fields.isTrialPeriod, fields.offerType, fields.offerDiscountType, fields.storefront,
            fields.transactionReason, fields.currency, fields.price,
        ]
    }

    /// Reads fields from a row selected with `names` (by column name).
    static func fields(from row: Row) -> TransactionFields {
        var fields = TransactionFields()
        fields.originalTransactionId = row["original_transaction_id"]
        fields.webOrderLineItemId = row["web_order_line_item_id"]
        fields.bundleId = row["bundle_id"]
        fields.productId = row["product_id"]
        fields.subscriptionGroupIdentifier = row["subscription_group_identifier"]
        fields.purchaseDate = row["purchase_date"]
        fields.originalPurchaseDate = row["original_purchase_date"]
        fields.expiresDate = row["expires_date"]
        fields.quantity = row["quantity"]
        fields.type = row["type"]
        fields.appAccountToken = row["app_account_token"]
        fields.inAppOwnershipType = row["in_app_ownership_type"]
        fields.signedDate = row["signed_date"]
        fields.revocationDate = row["revocation_date"]
        fields.revocationReason = row["revocation_reason"]
        fields.revocationType = row["revocation_type"]
        fields.revocationPercentage = row["revocation_percentage"]
        fields.isUpgraded = row["is_upgraded"]
        fields.isTrialPeriod = row["is_trial_period"]
        fields.offerType = row["offer_type"]
        fields.offerDiscountType = row["offer_discount_type"]
        fields.storefront = row["storefront"]
        fields.transactionReason = row["transaction_reason"]
        fields.currency = row["currency"]
        fields.price = row["price"]
        return fields
    }
}
