public import IAPFormats

/// A decoded signed renewal info: the subscription's renewal state at `signedDate`.
/// https://developer.apple.com/documentation/appstoreserverapi/jwsrenewalinfodecodedpayload
public struct JWSRenewalInfoDecodedPayload: Sendable, Equatable {
    public let originalTransactionId: String
    public let productId: String?
    public let autoRenewProductId: String?
    /// 0 off, 1 on.
    public let autoRenewStatus: Int64?
    /// 1…5, see ``ExpirationIntent``.
    public let expirationIntent: Int64?
    public let isInBillingRetryPeriod: Bool?
    public let gracePeriodExpiresDate: Int64?
    public let priceIncreaseStatus: Int64?
    public let renewalDate: Int64?
    public let signedDate: Int64?
    public let environment: String?
    public let appAccountToken: String?
    /// The fields no decoder reads (Apple's newer fields): kept in the store (`extra_fields`), never lost.
    public let unknownFields: JSONObject

    /// Decodes the payload JSON. `originalTransactionId` is required: it names the subscription.
    public init(json: JSONValue) throws(ModelDecodingError) {
        try self.init(reader: FieldReader(value: json, path: ""))
    }

    /// Decodes the payload from a reader over its top-level object (ingest reads a signed payload in place when it
    /// can, ``FlatJSONObject``).
    public init(reader: borrowing FieldReader) throws(ModelDecodingError) {
        originalTransactionId = try reader.requiredString("originalTransactionId")
        productId = try reader.string("productId")
        autoRenewProductId = try reader.string("autoRenewProductId")
        autoRenewStatus = try reader.int64("autoRenewStatus")
        expirationIntent = try reader.int64("expirationIntent")
        isInBillingRetryPeriod = try reader.bool("isInBillingRetryPeriod")
        gracePeriodExpiresDate = try reader.date("gracePeriodExpiresDate")
        priceIncreaseStatus = try reader.int64("priceIncreaseStatus")
        renewalDate = try reader.date("renewalDate")
        signedDate = try reader.date("signedDate")
        environment = try reader.string("environment")
        appAccountToken = try reader.string("appAccountToken")
        unknownFields = reader.unreadFields()
    }
}
