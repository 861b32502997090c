/// Merges the snapshots of one transaction into the row the analytics read (Documentation/Reports.md
/// "Transaction"): the version with the greatest document time wins field by field for the fields it
/// carries; the revocation fields travel as one group from the newest version, because the newest
/// snapshot alone decides whether the transaction is revoked (a version without `revocationDate` after
/// `REFUND_REVERSED` clears the refund).
///
/// Versions are ordered by (document time, version hash): the hash only breaks exact ties, so the
/// result is the same whatever order the files were read in.
public enum TransactionMerger {
    /// Merges versions (any order). Returns nil for an empty list.
    public static func merge(_ versions: [TransactionVersionRow]) -> MergedTransaction? {
        let ordered = versions.count == 1 ? versions : ordered(versions)
        guard let newest = ordered.last else { return nil }
        var merged = TransactionFields()
        for version in ordered {
            let fields = version.fields
            // Oldest first, so each newer value that is present overwrites.
            overwrite(&merged.originalTransactionId, fields.originalTransactionId)
            overwrite(&merged.webOrderLineItemId, fields.webOrderLineItemId)
            overwrite(&merged.bundleId, fields.bundleId)
            overwrite(&merged.productId, fields.productId)
            overwrite(&merged.subscriptionGroupIdentifier, fields.subscriptionGroupIdentifier)
            overwrite(&merged.purchaseDate, fields.purchaseDate)
            overwrite(&merged.originalPurchaseDate, fields.originalPurchaseDate)
            overwrite(&merged.expiresDate, fields.expiresDate)
            overwrite(&merged.quantity, fields.quantity)
            overwrite(&merged.type, fields.type)
            overwrite(&merged.appAccountToken, fields.appAccountToken)
            overwrite(&merged.appTransactionId, fields.appTransactionId)
            overwrite(&merged.inAppOwnershipType, fields.inAppOwnershipType)
            overwrite(&merged.signedDate, fields.signedDate)
            overwrite(&merged.isUpgraded, fields.isUpgraded)
            overwrite(&merged.isTrialPeriod, fields.isTrialPeriod)
            overwrite(&merged.offerType, fields.offerType)
            overwrite(&merged.offerDiscountType, fields.offerDiscountType)
            overwrite(&merged.storefront, fields.storefront)
            overwrite(&merged.transactionReason, fields.transactionReason)
            overwrite(&merged.currency, fields.currency)
            overwrite(&merged.price, fields.price)
        }
        merged.revocationDate = newest.fields.revocationDate
        merged.revocationReason = newest.fields.revocationReason
        merged.revocationType = newest.fields.revocationType
        merged.revocationPercentage = newest.fields.revocationPercentage
        return MergedTransaction(
            transactionId: newest.transactionId, documentTime: newest.documentTime, versionCount: ordered.count,
            format: newest.format, environment: newest.environment, fields: merged)
    }

    /// Versions in merge order: oldest first by (document time, version hash).
    public static func ordered(_ versions: [TransactionVersionRow]) -> [TransactionVersionRow] {
        versions.sorted { ($0.documentTime, $0.versionSHA256) < ($1.documentTime, $1.versionSHA256) }
    }

    private static func overwrite<Value>(_ target: inout Value?, _ value: Value?) {
        if let value { target = value }
    }
}

/// A transaction after merging all its versions.
public struct MergedTransaction: Sendable, Equatable {
    public var transactionId: String
    public var documentTime: Int64
    public var versionCount: Int
    public var format: PayloadFormat
    public var environment: String
    public var fields: TransactionFields
}
