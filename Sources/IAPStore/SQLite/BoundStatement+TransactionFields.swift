/// Binding and reading a transaction's fields in `TransactionColumns.names` order on SQLite.
extension BoundStatement {
    /// Binds a transaction's fields in `TransactionColumns.names` order.
    mutating func bind(_ fields: TransactionFields) {
        bind(fields.originalTransactionId)
        bind(fields.webOrderLineItemId)
        bind(fields.bundleId)
        bind(fields.productId)
        bind(fields.subscriptionGroupIdentifier)
        bind(fields.purchaseDate)
        bind(fields.originalPurchaseDate)
        bind(fields.expiresDate)
        bind(fields.quantity)
        bind(fields.type)
        bind(fields.appAccountToken)
        bind(fields.inAppOwnershipType)
        bind(fields.signedDate)
        bind(fields.revocationDate)
        bind(fields.revocationReason)
        bind(fields.revocationType)
        bind(fields.revocationPercentage)
        bind(fields.isUpgraded)
        bind(fields.isTrialPeriod)
        bind(fields.offerType)
        bind(fields.offerDiscountType)
        bind(fields.storefront)
        bind(fields.transactionReason)
        bind(fields.currency)
        bind(fields.price)
        bind(fields.appTransactionId)
    }
}

extension BoundStatement.RowReader {
    /// A transaction's fields stored in `TransactionColumns.names` order from column `offset` on.
    func transactionFields(from offset: Int32) -> TransactionFields {
        var fields = TransactionFields()
        fields.originalTransactionId = string(offset)
        fields.webOrderLineItemId = string(offset + 1)
        fields.bundleId = string(offset + 2)
        fields.productId = string(offset + 3)
        fields.subscriptionGroupIdentifier = string(offset + 4)
        fields.purchaseDate = int64(offset + 5)
        fields.originalPurchaseDate = int64(offset + 6)
        fields.expiresDate = int64(offset + 7)
        fields.quantity = int64(offset + 8)
        fields.type = string(offset + 9)
        fields.appAccountToken = string(offset + 10)
        fields.inAppOwnershipType = string(offset + 11)
        fields.signedDate = int64(offset + 12)
        fields.revocationDate = int64(offset + 13)
        fields.revocationReason = int64(offset + 14)
        fields.revocationType = string(offset + 15)
        fields.revocationPercentage = int64(offset + 16)
        fields.isUpgraded = bool(offset + 17)
        fields.isTrialPeriod = bool(offset + 18)
        fields.offerType = int64(offset + 19)
        fields.offerDiscountType = string(offset + 20)
        fields.storefront = string(offset + 21)
        fields.transactionReason = string(offset + 22)
        fields.currency = string(offset + 23)
        fields.price = int64(offset + 24)
        fields.appTransactionId = string(offset + 25)
        return fields
    }
}
