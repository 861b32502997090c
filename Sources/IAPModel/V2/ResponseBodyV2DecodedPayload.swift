public import IAPFormats

/// The decoded `signedPayload` of a V2 notification. Nested JWS (`signedTransactionInfo`,
/// `signedRenewalInfo`) stay as strings here: each is verified on its own before it is decoded.
/// https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2decodedpayload
public struct ResponseBodyV2DecodedPayload: Sendable, Equatable {
    /// The notification type as Apple sent it.
    public let rawNotificationType: String
    /// The subtype as Apple sent it.
    public let rawSubtype: String?
    /// Unique per notification and identical across Apple's retries: the deduplication key.
    public let notificationUUID: String
    /// The notification format version (`2.0`).
    public let version: String?
    /// When the App Store signed the notification (Unix ms).
    public let signedDate: Int64?
    /// App metadata and the signed transaction/renewal info.
    public let data: NotificationData?
    /// App identity of a `RENEWAL_EXTENSION`/`SUMMARY` notification.
    public let summaryIdentity: AppIdentity?
    /// App identity of an `EXTERNAL_PURCHASE_TOKEN` notification (environment derived from the token ID).
    public let externalPurchaseTokenIdentity: AppIdentity?
    /// App identity of a `RESCIND_CONSENT` notification.
    public let appDataIdentity: AppIdentity?
    /// The fields no decoder reads, at the top and inside `data`, `summary`, `externalPurchaseToken` and `appData`
    /// (under their own key): kept in the store (`extra_fields`), never lost.
    public let unknownFields: JSONObject

    /// The typed notification type, nil when Apple sent a value this version does not know.
    public var notificationType: NotificationTypeV2? { NotificationTypeV2(rawValue: rawNotificationType) }
    /// The typed subtype, nil when absent or unknown.
    public var subtype: Subtype? { rawSubtype.flatMap(Subtype.init(rawValue:)) }

    /// The app and environment this notification is about, from whichever part carries them.
    public var identity: AppIdentity? {
        data.map { AppIdentity(bundleId: $0.bundleId, appAppleId: $0.appAppleId, environment: $0.environment) }
            ?? summaryIdentity ?? externalPurchaseTokenIdentity ?? appDataIdentity
    }

    /// Decodes the payload JSON.
    public init(json: JSONValue) throws(ModelDecodingError) {
        try self.init(reader: FieldReader(value: json, path: ""))
    }

    /// Decodes the payload from a reader over its top-level object (ingest reads a signed payload in place when it
    /// can, ``FlatJSONObject``).
    public init(reader: borrowing FieldReader) throws(ModelDecodingError) {
        rawNotificationType = try reader.requiredString("notificationType")
        rawSubtype = try reader.string("subtype")
        notificationUUID = try reader.requiredString("notificationUUID")
        version = try reader.string("version")
        signedDate = try reader.date("signedDate")
        let dataReader = try reader.object("data")
        data = try dataReader.map { reader throws(ModelDecodingError) in try NotificationData(reader) }
        let summaryReader = try reader.object("summary")
        summaryIdentity = try summaryReader.map { reader throws(ModelDecodingError) in
            AppIdentity(
                bundleId: try reader.string("bundleId"), appAppleId: try reader.int64("appAppleId"),
                environment: try reader.string("environment"))
        }
        let tokenReader = try reader.object("externalPurchaseToken")
        externalPurchaseTokenIdentity = try tokenReader.map { reader throws(ModelDecodingError) in
            // The token object has no environment; Apple's libraries derive it from the SANDBOX prefix.
            let tokenId = try reader.string("externalPurchaseId") ?? ""
            return AppIdentity(
                bundleId: try reader.string("bundleId"), appAppleId: try reader.int64("appAppleId"),
                environment: tokenId.hasPrefix("SANDBOX") ? "Sandbox" : "Production")
        }
        let appDataReader = try reader.object("appData")
        appDataIdentity = try appDataReader.map { reader throws(ModelDecodingError) in
            AppIdentity(
                bundleId: try reader.string("bundleId"), appAppleId: try reader.int64("appAppleId"),
                environment: try reader.string("environment"))
        }
        var unknown = reader.unreadFields()
        let parts = [
            ("data", dataReader), ("summary", summaryReader), ("externalPurchaseToken", tokenReader),
            ("appData", appDataReader),
        ]
        for (key, partReader) in parts {
            if let partUnknown = partReader?.unreadFields(), !partUnknown.isEmpty {
                unknown.updateValue(.object(partUnknown), forKey: key)
            }
        }
        unknownFields = unknown
    }
}

/// Which app and environment a document belongs to.
public struct AppIdentity: Sendable, Equatable {
    /// The bundle ID, when the document carries one.
    public let bundleId: String?
    /// The app Apple ID, when the document carries one (absent in Sandbox).
    public let appAppleId: Int64?
    /// The environment as sent.
    public let environment: String?

    /// Creates an identity.
    public init(bundleId: String?, appAppleId: Int64?, environment: String?) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
    }
}
