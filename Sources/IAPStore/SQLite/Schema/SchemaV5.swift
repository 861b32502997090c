// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
/// Migration "v5 lineage keys": `notifications`, `transaction_versions` and `transactions` get `lineage_id`
/// (``Lineage``: the purchase lineage, `originalTransactionId`), and it leads their unique keys:
/// `(lineage_id, notification_id)`, `(lineage_id, transaction_id, document_id)`, `(lineage_id, transaction_id)`.
///
/// This is the shape Citus needs to distribute the three tables by lineage, co-located with `renewal_infos`
/// (`Documentation/Scaling.md`); SQLite takes the same keys so both engines keep exactly the same rows. SQLite can
/// neither add a `NOT NULL` column without a default nor change a primary key, so each table is rebuilt: same rows,
/// the new column last (where PostgreSQL's `ADD COLUMN` puts it), the lineage computed as ``Lineage`` does.
/// The rebuilt tables get their indexes back at once, the notifications' unique key over the new key; a store a
/// killed bulk load left with a notification twice keeps the copy that key keeps.
enum SchemaV5 {
    /// The notifications' unique key as it was when this migration shipped (frozen: a later column in the live key's
    /// order does not exist yet when this runs).
    private static let notificationKey = SecondaryIndexes.UniqueKey(
        table: "notifications", columns: ["lineage_id", "notification_id"],
        order: "raw_sha256, coalesce(received_at, 9223372036854775807), rowid")

    /// `coalesce` that treats an empty ID as missing, as ``Lineage`` does.
    private static func present(_ column: String) -> String { "nullif(\(column), '')" }

    static var statements: [String] {
        let transactionColumns = TransactionColumns.namesOfV1.joined(separator: ", ")
        let transactionLineage = "coalesce(\(present("original_transaction_id")), transaction_id)"
        return [
            "PRAGMA legacy_alter_table = ON",
            """
            CREATE TABLE notifications_v5 (
                notification_id TEXT NOT NULL,
                format TEXT NOT NULL CHECK (format IN ('v2', 'v1')),
                notification_type TEXT NOT NULL,
                subtype TEXT,
                environment TEXT NOT NULL,
                bundle_id TEXT,
                app_apple_id INTEGER,
                version TEXT,
                signed_date INTEGER,
                received_at INTEGER,
                document_time INTEGER NOT NULL,
                transaction_id TEXT,
                original_transaction_id TEXT,
                product_id TEXT,
                status INTEGER,
                consumption_request_reason TEXT,
                raw_sha256 TEXT NOT NULL,
                lineage_id TEXT NOT NULL
            ) STRICT
            """,
            """
            INSERT INTO notifications_v5 SELECT *,
                coalesce(\(present("original_transaction_id")), \(present("transaction_id")), notification_id)
            FROM notifications
            """,
            "DROP TABLE notifications",
            "ALTER TABLE notifications_v5 RENAME TO notifications",
            notificationKey.deduplication(),
            "CREATE UNIQUE INDEX notifications_by_id ON notifications (lineage_id, notification_id)",
            "CREATE INDEX notifications_by_transaction ON notifications (transaction_id, notification_type)",
            "CREATE INDEX notifications_by_type ON notifications (notification_type, document_time)",
            """
            CREATE TABLE transaction_versions_v5 (
                transaction_id TEXT NOT NULL,
                document_id TEXT NOT NULL,
                source TEXT NOT NULL
                    CHECK (source IN (
                        'v2_notification', 'v1_notification', 'refund_history', 'order_lookup', 'transaction_history'
                    )),
                format TEXT NOT NULL CHECK (format IN ('v2', 'v1')),
                document_time INTEGER NOT NULL,
                version_sha256 TEXT NOT NULL,
                environment TEXT NOT NULL,
                \(SchemaV5.transactionFieldColumns),
                lineage_id TEXT NOT NULL,
                PRIMARY KEY (lineage_id, transaction_id, document_id)
            ) STRICT
            """,
            "INSERT INTO transaction_versions_v5 SELECT *, \(transactionLineage) FROM transaction_versions",
            "DROP TABLE transaction_versions",
            "ALTER TABLE transaction_versions_v5 RENAME TO transaction_versions",
            """
            CREATE TABLE transactions_v5 (
                transaction_id TEXT NOT NULL,
                document_time INTEGER NOT NULL,
                version_count INTEGER NOT NULL,
                format TEXT NOT NULL,
                environment TEXT NOT NULL,
                \(SchemaV5.transactionFieldColumns),
                lineage_id TEXT NOT NULL,
                PRIMARY KEY (lineage_id, transaction_id)
            ) STRICT
            """,
            """
            INSERT INTO transactions_v5
            SELECT transaction_id, document_time, version_count, format, environment, \(transactionColumns),
                \(transactionLineage)
            FROM transactions
            """,
            "DROP TABLE transactions",
            "ALTER TABLE transactions_v5 RENAME TO transactions",
            "CREATE INDEX transactions_by_original ON transactions (original_transaction_id, purchase_date)",
            "PRAGMA legacy_alter_table = OFF",
        ]
    }

    /// The columns of ``TransactionColumns/namesOfV1`` with the types migration v1 gave them.
    private static var transactionFieldColumns: String {
        let integers: Set<String> = [
            "purchase_date", "original_purchase_date", "expires_date", "quantity", "signed_date", "revocation_date",
            "revocation_reason", "revocation_percentage", "is_upgraded", "is_trial_period", "offer_type", "price",
        ]
        return TransactionColumns.namesOfV1.map { "\($0) \(integers.contains($0) ? "INTEGER" : "TEXT")" }
            .joined(separator: ",\n    ")
    }
}
