/// The fields of a transaction, as one snapshot carried them. Shared by versions (one per document)
/// and the merged `transactions` row.
public struct TransactionFields: Sendable, Equatable {
    public var originalTransactionId: String?
    public var webOrderLineItemId: String?
    public var bundleId: String?
    public var productId: String?
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: Int64?
    public var originalPurchaseDate: Int64?
    public var expiresDate: Int64?
    public var quantity: Int64?
    /// Apple's spelling (`Auto-Renewable Subscription`, …).
    public var type: String?
    /// Lower-cased.
    public var appAccountToken: String?
    public var inAppOwnershipType: String?
    public var signedDate: Int64?
    public var revocationDate: Int64?
    public var revocationReason: Int64?
    public var revocationType: String?
    public var revocationPercentage: Int64?
    public var isUpgraded: Bool?
    public var isTrialPeriod: Bool?
    public var offerType: Int64?
    public var offerDiscountType: String?
    public var storefront: String?
    public var transactionReason: String?
    public var currency: String?
    public var price: Int64?
    /// V2 only: the app download transaction, one per Apple Account and app (Documentation/Reports.md "Account").
    public var appTransactionId: String?

    /// Creates empty fields.
    @inlinable public init() {}
}
