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

    /// Reads fields from a row that holds the `names` columns, in `names` order, from column `offset` on.
    /// By position: GRDB's lookup by name compares lower-cased names, which cost more than the row itself.
    static func fields(from row: Row, offset: Int) -> TransactionFields {
        var fields = TransactionFields()
        fields.originalTransactionId = row[offset]
        fields.webOrderLineItemId = row[offset + 1]
        fields.bundleId = row[offset + 2]
        fields.productId = row[offset + 3]
        fields.subscriptionGroupIdentifier = row[offset + 4]
        fields.purchaseDate = row[offset + 5]
        fields.originalPurchaseDate = row[offset + 6]
        fields.expiresDate = row[offset + 7]
        fields.quantity = row[offset + 8]
        fields.type = row[offset + 9]
        fields.appAccountToken = row[offset + 10]
        fields.inAppOwnershipType = row[offset + 11]
        fields.signedDate = row[offset + 12]
        fields.revocationDate = row[offset + 13]
        fields.revocationReason = row[offset + 14]
        fields.revocationType = row[offset + 15]
        fields.revocationPercentage = row[offset + 16]
        fields.isUpgraded = row[offset + 17]
        fields.isTrialPeriod = row[offset + 18]
        fields.offerType = row[offset + 19]
        fields.offerDiscountType = row[offset + 20]
        fields.storefront = row[offset + 21]
        fields.transactionReason = row[offset + 22]
        fields.currency = row[offset + 23]
        fields.price = row[offset + 24]
        return fields
    }
}
