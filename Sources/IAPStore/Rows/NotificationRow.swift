/// One notification (V2 or V1), one column per field the analytics use.
public struct NotificationRow: Sendable, Equatable {
    public var notificationId: String
    /// `v2` or `v1`.
    public var format: PayloadFormat
    public var notificationType: String
    public var subtype: String?
    /// Normalised: `Production`, `Sandbox`, or the raw unknown value.
    public var environment: String
    public var bundleId: String?
    public var appAppleId: Int64?
    public var version: String?
    public var signedDate: Int64?
    public var receivedAt: Int64?
    /// Documentation/Reports.md document time.
    public var documentTime: Int64
    public var transactionId: String?
    public var originalTransactionId: String?
    public var productId: String?
    public var status: Int64?
    public var consumptionRequestReason: String?
    /// SHA-256 of the raw document (deterministic tie-break between copies).
    public var rawSHA256: String
    /// Whether this copy's signatures were checked (false under `--no-verify`). A verified copy of a notification
    /// wins over an unverified one with the same key, and only a verified copy is ever acted on.
    public var isVerified: Bool
    /// The payload's fields no column holds, as canonical JSON (nil when none): Apple's newer fields, kept.
    public var extraFields: String?

    /// Creates a row.
    /// Inlinable: ingest makes one for nearly every document in another module, where the row is then built in
    /// place; called, the initializer built it aside and copied it out (a retain and a release per string).
    @inlinable public init(
        notificationId: String, format: PayloadFormat, notificationType: String, subtype: String?, environment: String,
        bundleId: String?, appAppleId: Int64?, version: String?, signedDate: Int64?, receivedAt: Int64?,
        documentTime: Int64, transactionId: String?, originalTransactionId: String?, productId: String?,
        status: Int64?, consumptionRequestReason: String?, rawSHA256: String, isVerified: Bool
    ) {
        self.notificationId = notificationId
        self.format = format
        self.notificationType = notificationType
        self.subtype = subtype
        self.environment = environment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.version = version
        self.signedDate = signedDate
        self.receivedAt = receivedAt
        self.documentTime = documentTime
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.status = status
        self.consumptionRequestReason = consumptionRequestReason
        self.rawSHA256 = rawSHA256
        self.isVerified = isVerified
    }
}
