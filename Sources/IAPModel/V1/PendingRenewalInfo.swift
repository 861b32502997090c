public import IAPFormats

/// The renewal state of one subscription in a V1 receipt (`pending_renewal_info[]`); values are strings.
/// https://developer.apple.com/documentation/appstorereceipts/responsebody/pending_renewal_info
public struct PendingRenewalInfo: Sendable, Equatable {
    public let originalTransactionId: String
    public let productId: String?
    public let autoRenewProductId: String?
    public let autoRenewStatus: Bool?
    public let expirationIntent: Int64?
    public let isInBillingRetryPeriod: Bool?
    public let gracePeriodExpiresDate: Int64?
    public let priceConsentStatus: Int64?
    /// The fields no decoder reads (Apple's newer fields): kept in the store (`extra_fields`), never lost.
    public let unknownFields: JSONObject

    init(_ reader: FieldReader) throws(ModelDecodingError) {
        guard let id = try reader.lenientString("original_transaction_id"), !id.isEmpty else {
            throw ModelDecodingError(keyPath: reader.keyPath("original_transaction_id"), problem: "is missing")
        }
        originalTransactionId = id
        productId = try reader.lenientString("product_id")
        autoRenewProductId = try reader.lenientString("auto_renew_product_id")
        autoRenewStatus = try reader.lenientBool("auto_renew_status")
        expirationIntent = try reader.lenientInt64("expiration_intent")
        isInBillingRetryPeriod = try reader.lenientBool("is_in_billing_retry_period")
        gracePeriodExpiresDate = try reader.date("grace_period_expires_date_ms", lenient: true)
        priceConsentStatus = try reader.lenientInt64("price_consent_status")
        reader.skip("grace_period_expires_date", "grace_period_expires_date_pst")
        unknownFields = reader.unreadFields()
    }
}
