/// The `data` object of a V2 notification.
/// https://developer.apple.com/documentation/appstoreservernotifications/data
public struct NotificationData: Sendable, Equatable {
    /// The app's Apple ID (absent in Sandbox).
    public let appAppleId: Int64?
    /// The bundle ID.
    public let bundleId: String?
    /// The app's build version.
    public let bundleVersion: String?
    /// `Production` or `Sandbox`, as sent.
    public let environment: String?
    /// The signed transaction (JWS), verified separately.
    public let signedTransactionInfo: String?
    /// The signed renewal info (JWS), verified separately; subscriptions only.
    public let signedRenewalInfo: String?
    /// Subscription status at `signedDate` (1 active … 5 revoked).
    public let status: Int64?
    /// The customer's stated reason on `CONSUMPTION_REQUEST`.
    public let consumptionRequestReason: String?

    init(_ reader: FieldReader) throws(ModelDecodingError) {
        appAppleId = try reader.int64("appAppleId")
        bundleId = try reader.string("bundleId")
        bundleVersion = try reader.string("bundleVersion")
        environment = try reader.string("environment")
        signedTransactionInfo = try reader.string("signedTransactionInfo")
        signedRenewalInfo = try reader.string("signedRenewalInfo")
        status = try reader.int64("status")
        consumptionRequestReason = try reader.string("consumptionRequestReason")
    }
}
