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
