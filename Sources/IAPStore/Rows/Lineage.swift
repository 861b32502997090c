/// The purchase lineage a fact row belongs to: the `originalTransactionId` its own signed payload names. It is the
/// column every lineage table (`notifications`, `transaction_versions`, `transactions`, and `renewal_infos` through
/// its `original_transaction_id`) would be distributed by on Citus, so it leads their unique keys and every join
/// between them names it (`Documentation/Scaling.md`).
///
/// A pure function of the row: ingest computes it, no lookup needed, so a row lands on the same shard whichever
/// worker reads it and in whatever order. Apple gives a transaction one `originalTransactionId` for life, so adding
/// the lineage to a key never splits what the key held before. A row whose payload names no lineage (a TEST or
/// summary notification, a malformed transaction) is its own lineage: its own ID.
public enum Lineage {
    /// The lineage of a transaction snapshot, or of a transaction's merged row.
    public static func of(transactionId: String, originalTransactionId: String?) -> String {
        nonEmpty(originalTransactionId) ?? transactionId
    }

    /// The lineage of a notification: its transaction's (or renewal info's) subscription, else its transaction,
    /// else the notification itself.
    public static func of(notificationId: String, transactionId: String?, originalTransactionId: String?) -> String {
        nonEmpty(originalTransactionId) ?? nonEmpty(transactionId) ?? notificationId
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}

extension NotificationRow {
    /// ``Lineage``.
    public var lineageId: String {
        Lineage.of(
            notificationId: notificationId, transactionId: transactionId, originalTransactionId: originalTransactionId)
    }
}

extension TransactionVersionRow {
    /// ``Lineage``.
    public var lineageId: String {
        Lineage.of(transactionId: transactionId, originalTransactionId: fields.originalTransactionId)
    }
}

extension MergedTransaction {
    /// ``Lineage``: the versions merged into one row all have this lineage.
    public var lineageId: String {
        Lineage.of(transactionId: transactionId, originalTransactionId: fields.originalTransactionId)
    }
}
