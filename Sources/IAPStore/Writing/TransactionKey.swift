/// A transaction's key in the store: its lineage (``Lineage``) and its ID.
struct TransactionKey: Hashable, Comparable {
    let lineageId: String
    let transactionId: String

    init(lineageId: String, transactionId: String) {
        self.lineageId = lineageId
        self.transactionId = transactionId
    }

    init(_ version: TransactionVersionRow) {
        lineageId = version.lineageId
        transactionId = version.transactionId
    }

    static func < (a: TransactionKey, b: TransactionKey) -> Bool {
        (a.lineageId, a.transactionId) < (b.lineageId, b.transactionId)
    }
}

extension TransactionKey {
    /// The ``KeyDigest`` of the key of a transaction with lineage `lineageId`.
    ///
    /// The writer counts each write's versions per transaction by this digest instead of by the key itself. Two
    /// keys that share a digest both look like transactions with several versions, which only sends them down the
    /// general path, right for any number of versions.
    static func digest(lineageId: String, transactionId: String) -> UInt64 {
        KeyDigest.of(lineageId, transactionId)
    }
}
