/// One Look Up Order ID result and the transactions it listed.
public struct OrderLookupRow: Sendable, Equatable {
    /// The order ID, or `generated:<sha256>` when the archive did not record it.
    public var lookupId: String
    public var orderId: String?
    /// 0 valid, 1 invalid.
    public var status: Int64
    public var environment: String?
    /// Greatest `signedDate` of its transactions; nil when it listed none.
    public var documentTime: Int64?
    public var receivedAt: Int64?
    /// Why the key was generated, or other remarks for a reviewer.
    public var note: String?
    /// IDs of the transactions it listed (verified entries only).
    public var transactionIds: [String]

    /// Creates a row.
    public init(
        lookupId: String, orderId: String?, status: Int64, environment: String?, documentTime: Int64?,
        receivedAt: Int64?,
        note: String?, transactionIds: [String]
    ) {
        self.lookupId = lookupId
        self.orderId = orderId
        self.status = status
        self.environment = environment
        self.documentTime = documentTime
        self.receivedAt = receivedAt
        self.note = note
        self.transactionIds = transactionIds
    }
}
