public import IAPFormats

/// A decoded signed transaction: from a notification, a refund-history page or an order lookup.
/// https://developer.apple.com/documentation/appstoreserverapi/jwstransactiondecodedpayload
public struct JWSTransactionDecodedPayload: Sendable, Equatable {
    public let transactionId: String
    public let originalTransactionId: String?
    public let webOrderLineItemId: String?
    public let bundleId: String?
    public let productId: String?
    public let subscriptionGroupIdentifier: String?
    public let purchaseDate: Int64?
    public let originalPurchaseDate: Int64?
    public let expiresDate: Int64?
    public let quantity: Int64?
    /// `Auto-Renewable Subscription`, `Consumable`, … as sent.
    public let rawType: String?
    public let appAccountToken: String?
    public let rawInAppOwnershipType: String?
    public let signedDate: Int64?
    public let revocationReason: Int64?
    public let revocationDate: Int64?
    public let revocationType: String?
    /// Milli-percent: 100000 = 100 %.
    public let revocationPercentage: Int64?
    public let isUpgraded: Bool?
    public let offerType: Int64?
    public let offerDiscountType: String?
    public let environment: String?
    public let storefront: String?
    public let transactionReason: String?
    public let currency: String?
    /// Milliunits of `currency`.
    public let price: Int64?
    /// The app download transaction: one per Apple Account and app, kept across refunds and repurchases (from
    /// 2025-02-21).
    public let appTransactionId: String?
    /// The fields no decoder reads (Apple's newer fields): kept in the store (`extra_fields`), never lost.
    public let unknownFields: JSONObject

    /// The typed product type, nil when absent or unknown.
    public var type: ProductType? { rawType.flatMap(ProductType.init(rawValue:)) }
    /// The typed ownership, nil when absent or unknown.
    public var inAppOwnershipType: InAppOwnershipType? {
        rawInAppOwnershipType.flatMap(InAppOwnershipType.init(rawValue:))
    }

    /// Decodes the payload JSON. `transactionId` is required: it is the identity of everything downstream.
    public init(json: JSONValue) throws(ModelDecodingError) {
        try self.init(reader: FieldReader(value: json, path: ""))
    }

    /// Decodes the payload from a reader over its top-level object (ingest reads a signed payload in place when it
    /// can, ``FlatJSONObject``).
    public init(reader: borrowing FieldReader) throws(ModelDecodingError) {
        transactionId = try reader.requiredString("transactionId")
        originalTransactionId = try reader.string("originalTransactionId")
        webOrderLineItemId = try reader.string("webOrderLineItemId")
        bundleId = try reader.string("bundleId")
        productId = try reader.string("productId")
        subscriptionGroupIdentifier = try reader.string("subscriptionGroupIdentifier")
        purchaseDate = try reader.date("purchaseDate")
        originalPurchaseDate = try reader.date("originalPurchaseDate")
        expiresDate = try reader.date("expiresDate")
        quantity = try reader.count("quantity", in: AppStoreBounds.quantity, "a quantity")
        rawType = try reader.string("type")
        appAccountToken = try reader.string("appAccountToken")
        rawInAppOwnershipType = try reader.string("inAppOwnershipType")
        signedDate = try reader.date("signedDate")
        revocationReason = try reader.int64("revocationReason")
        revocationDate = try reader.date("revocationDate")
        revocationType = try reader.string("revocationType")
        revocationPercentage = try reader.count(
            "revocationPercentage", in: AppStoreBounds.revocationPercentage, "a refund percentage")
        isUpgraded = try reader.bool("isUpgraded")
        offerType = try reader.int64("offerType")
        offerDiscountType = try reader.string("offerDiscountType")
        environment = try reader.string("environment")
        storefront = try reader.string("storefront")
        transactionReason = try reader.string("transactionReason")
        currency = try reader.string("currency")
        price = try reader.count("price", in: AppStoreBounds.priceMilli, "a price in milliunits")
        appTransactionId = try reader.string("appTransactionId")
        unknownFields = reader.unreadFields()
    }
}
