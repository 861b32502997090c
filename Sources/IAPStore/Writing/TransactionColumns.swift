/// The transaction field columns in one order, shared by `transaction_versions` and `transactions`
/// so the two tables can never drift apart in either engine's writer; ``values(of:)``, SQLite's binding
/// (`BoundStatement+TransactionFields.swift`) and PostgreSQL's reading follow it.
enum TransactionColumns {
    /// Every column, in the order of the tables after all migrations.
    static let names: [String] = namesOfV1 + ["app_transaction_id"]

    /// The columns migration v1 created, frozen: the migrations that build or rebuild the tables name exactly these,
    /// whatever columns later migrations add.
    static let namesOfV1: [String] = [
        "original_transaction_id", "web_order_line_item_id", "bundle_id", "product_id",
        "subscription_group_identifier", "purchase_date", "original_purchase_date", "expires_date", "quantity", "type",
        "app_account_token", "in_app_ownership_type", "signed_date", "revocation_date", "revocation_reason",
        "revocation_type", "revocation_percentage", "is_upgraded", "is_trial_period", "offer_type",
        "offer_discount_type", "storefront", "transaction_reason", "currency", "price",
    ]
}

extension TransactionColumns {
    /// A transaction's fields in `names` order.
    static func values(of fields: TransactionFields) -> [SQLValue] {
        [
            SQLValue(fields.originalTransactionId), SQLValue(fields.webOrderLineItemId), SQLValue(fields.bundleId),
            SQLValue(fields.productId), SQLValue(fields.subscriptionGroupIdentifier), SQLValue(fields.purchaseDate),
            SQLValue(fields.originalPurchaseDate), SQLValue(fields.expiresDate), SQLValue(fields.quantity),
            SQLValue(fields.type), SQLValue(fields.appAccountToken), SQLValue(fields.inAppOwnershipType),
            SQLValue(fields.signedDate), SQLValue(fields.revocationDate), SQLValue(fields.revocationReason),
            SQLValue(fields.revocationType), SQLValue(fields.revocationPercentage), SQLValue(fields.isUpgraded),
            SQLValue(fields.isTrialPeriod), SQLValue(fields.offerType), SQLValue(fields.offerDiscountType),
            SQLValue(fields.storefront), SQLValue(fields.transactionReason), SQLValue(fields.currency),
            SQLValue(fields.price), SQLValue(fields.appTransactionId),
        ]
    }

    /// A transaction's fields from `values` in `names` order (a row read back from either engine).
    static func fields(from values: ArraySlice<SQLValue>) -> TransactionFields {
        let v = Array(values)
        var fields = TransactionFields()
        fields.originalTransactionId = v[0].text
        fields.webOrderLineItemId = v[1].text
        fields.bundleId = v[2].text
        fields.productId = v[3].text
        fields.subscriptionGroupIdentifier = v[4].text
        fields.purchaseDate = v[5].integer
        fields.originalPurchaseDate = v[6].integer
        fields.expiresDate = v[7].integer
        fields.quantity = v[8].integer
        fields.type = v[9].text
        fields.appAccountToken = v[10].text
        fields.inAppOwnershipType = v[11].text
        fields.signedDate = v[12].integer
        fields.revocationDate = v[13].integer
        fields.revocationReason = v[14].integer
        fields.revocationType = v[15].text
        fields.revocationPercentage = v[16].integer
        fields.isUpgraded = v[17].bool
        fields.isTrialPeriod = v[18].bool
        fields.offerType = v[19].integer
        fields.offerDiscountType = v[20].text
        fields.storefront = v[21].text
        fields.transactionReason = v[22].text
        fields.currency = v[23].text
        fields.price = v[24].integer
        fields.appTransactionId = v[25].text
        return fields
    }
}
