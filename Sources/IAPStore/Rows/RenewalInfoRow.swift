/// One renewal-state snapshot: a V2 `signedRenewalInfo` or one V1 `pending_renewal_info` entry.
public struct RenewalInfoRow: Sendable, Equatable {
    public var documentId: String
    public var originalTransactionId: String
    public var format: PayloadFormat
    public var documentTime: Int64
    public var environment: String
    public var productId: String?
    public var autoRenewProductId: String?
    public var autoRenewStatus: Int64?
    public var expirationIntent: Int64?
    public var isInBillingRetryPeriod: Bool?
    public var gracePeriodExpiresDate: Int64?
    public var priceIncreaseStatus: Int64?
    public var renewalDate: Int64?
    public var signedDate: Int64?
    public var appAccountToken: String?
    /// The payload's fields no column holds, as canonical JSON (nil when none): Apple's newer fields, kept.
    public var extraFields: String?

    /// Creates a row with the identifying fields; set the rest as properties.
    /// Inlinable: ingest makes one for nearly every document in another module, where the row is then built in
    /// place; called, the initializer built it aside and copied it out (a retain and a release per string).
    @inlinable public init(
        documentId: String, originalTransactionId: String, format: PayloadFormat, documentTime: Int64,
        environment: String
    ) {
        self.documentId = documentId
        self.originalTransactionId = originalTransactionId
        self.format = format
        self.documentTime = documentTime
        self.environment = environment
    }
}
