/// One snapshot of a transaction carried by one document.
public struct TransactionVersionRow: Sendable, Equatable {
    public var transactionId: String
    /// The notification or page entry that carried it.
    public var documentId: String
    /// `v2_notification`, `v1_notification`, `refund_history` or `order_lookup`.
    public var source: TransactionSource
    /// `v2` or `v1`.
    public var format: PayloadFormat
    /// The carrying document's time: newer wins when versions are merged.
    public var documentTime: Int64
    /// SHA-256 of the signed transaction (or canonical V1 entry): breaks ties deterministically.
    public var versionSHA256: String
    public var environment: String
    public var fields: TransactionFields
    /// The payload's fields no column holds, as canonical JSON (nil when none): Apple's newer fields, kept.
    public var extraFields: String?

    /// Creates a row.
    /// Inlinable: ingest makes one for nearly every document in another module, where the row is then built in
    /// place; called, the initializer built it aside and copied it out (a retain and a release per string).
    @inlinable public init(
        transactionId: String, documentId: String, source: TransactionSource, format: PayloadFormat,
        documentTime: Int64,
        versionSHA256: String, environment: String, fields: TransactionFields
    ) {
        self.transactionId = transactionId
        self.documentId = documentId
        self.source = source
        self.format = format
        self.documentTime = documentTime
        self.versionSHA256 = versionSHA256
        self.environment = environment
        self.fields = fields
    }
}
