public import IAPFormats

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
    /// The signed transaction (JWS), verified separately. Left where it lies in the payload when that was read in
    /// place, so its 5 KB are not copied (``InPlaceString``).
    public let signedTransactionInfo: InPlaceString?
    /// The signed renewal info (JWS), verified separately; subscriptions only. Left in place like the transaction.
    public let signedRenewalInfo: InPlaceString?
    /// Subscription status at `signedDate` (1 active … 5 revoked).
    public let status: Int64?
    /// The customer's stated reason on `CONSUMPTION_REQUEST`.
    public let consumptionRequestReason: String?

    init(_ reader: FieldReader) throws(ModelDecodingError) {
        appAppleId = try reader.int64("appAppleId")
        bundleId = try reader.string("bundleId")
        bundleVersion = try reader.string("bundleVersion")
        environment = try reader.string("environment")
        signedTransactionInfo = try reader.inPlaceString("signedTransactionInfo")
        signedRenewalInfo = try reader.inPlaceString("signedRenewalInfo")
        status = try reader.int64("status")
        consumptionRequestReason = try reader.string("consumptionRequestReason")
    }
}
