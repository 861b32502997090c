public import IAPFormats

/// One transaction of a V1 receipt (`latest_receipt_info[]`); every value arrives as a string.
/// https://developer.apple.com/documentation/appstorereceipts/responsebody/latest_receipt_info
public struct LatestReceiptInfo: Sendable, Equatable {
    public let transactionId: String
    public let originalTransactionId: String?
    public let productId: String?
    public let quantity: Int64?
    public let purchaseDate: Int64?
    public let originalPurchaseDate: Int64?
    public let expiresDate: Int64?
    public let cancellationDate: Int64?
    public let cancellationReason: Int64?
    public let isTrialPeriod: Bool?
    public let isInIntroOfferPeriod: Bool?
    public let isUpgraded: Bool?
    public let webOrderLineItemId: String?
    public let subscriptionGroupIdentifier: String?
    public let rawInAppOwnershipType: String?
    public let appAccountToken: String?
    /// The fields no decoder reads (Apple's newer fields): kept in the store (`extra_fields`), never lost.
    public let unknownFields: JSONObject

    init(_ reader: FieldReader) throws(ModelDecodingError) {
        guard let id = try reader.lenientString("transaction_id"), !id.isEmpty else {
            throw ModelDecodingError(keyPath: reader.keyPath("transaction_id"), problem: "is missing")
        }
        transactionId = id
        originalTransactionId = try reader.lenientString("original_transaction_id")
        productId = try reader.lenientString("product_id")
        quantity = try reader.count("quantity", in: AppStoreBounds.quantity, "a quantity", lenient: true)
        purchaseDate = try reader.date("purchase_date_ms", lenient: true)
        originalPurchaseDate = try reader.date("original_purchase_date_ms", lenient: true)
        // The pre-2021 object form wrote `expires_date` itself in milliseconds.
        expiresDate =
            try reader.date("expires_date_ms", lenient: true) ?? (try? reader.date("expires_date", lenient: true))
            ?? nil
        cancellationDate = try reader.date("cancellation_date_ms", lenient: true)
        cancellationReason = try reader.lenientInt64("cancellation_reason")
        isTrialPeriod = try reader.lenientBool("is_trial_period")
        isInIntroOfferPeriod = try reader.lenientBool("is_in_intro_offer_period")
        isUpgraded = try reader.lenientBool("is_upgraded")
        webOrderLineItemId = try reader.lenientString("web_order_line_item_id")
        subscriptionGroupIdentifier = try reader.lenientString("subscription_group_identifier")
        rawInAppOwnershipType = try reader.lenientString("in_app_ownership_type")
        appAccountToken = try reader.lenientString("app_account_token")
        // The text spellings of the millisecond dates read above say nothing more.
        for date in ["purchase_date", "original_purchase_date", "expires_date", "cancellation_date"] {
            reader.skip(date, date + "_pst")
        }
        unknownFields = reader.unreadFields()
    }
}
