// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
/// Migration "v4 unique keys as indexes": `notifications` and `renewal_infos` keep their uniqueness in unique
/// indexes instead of primary keys, so a bulk load can drop those indexes with the others.
///
/// Their keys are UUIDs that arrive in random order. At a million documents the two key b-trees outgrew the
/// page cache, and keeping them row by row took a third of the writer's time (1M verified ingest: the writer
/// thread used 32 % of a core with them and 21 % without). SQLite cannot drop a primary key, so both tables are
/// rebuilt: same columns, same rows, rowid tables, each key a `UNIQUE` index. The legacy rename leaves the
/// analysis views (which name these tables) untouched while the old table is briefly gone.
enum SchemaV4 {
    static let statements: [String] = [
        "PRAGMA legacy_alter_table = ON",
        """
        CREATE TABLE notifications_v4 (
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
            raw_sha256 TEXT NOT NULL
        ) STRICT
        """,
        "INSERT INTO notifications_v4 SELECT * FROM notifications",
        "DROP TABLE notifications",
        "ALTER TABLE notifications_v4 RENAME TO notifications",
        "CREATE UNIQUE INDEX notifications_by_id ON notifications (notification_id)",
        "CREATE INDEX notifications_by_transaction ON notifications (transaction_id, notification_type)",
        "CREATE INDEX notifications_by_type ON notifications (notification_type, document_time)",
        """
        CREATE TABLE renewal_infos_v4 (
            document_id TEXT NOT NULL,
            original_transaction_id TEXT NOT NULL,
            format TEXT NOT NULL CHECK (format IN ('v2', 'v1')),
            document_time INTEGER NOT NULL,
            environment TEXT NOT NULL,
            product_id TEXT,
            auto_renew_product_id TEXT,
            auto_renew_status INTEGER,
            expiration_intent INTEGER,
            is_in_billing_retry_period INTEGER,
            grace_period_expires_date INTEGER,
            price_increase_status INTEGER,
            renewal_date INTEGER,
            signed_date INTEGER,
            app_account_token TEXT
        ) STRICT
        """,
        "INSERT INTO renewal_infos_v4 SELECT * FROM renewal_infos",
        "DROP TABLE renewal_infos",
        "ALTER TABLE renewal_infos_v4 RENAME TO renewal_infos",
        "CREATE UNIQUE INDEX renewal_infos_by_key ON renewal_infos (document_id, original_transaction_id)",
        "CREATE INDEX renewal_infos_by_subscription ON renewal_infos (original_transaction_id, document_time)",
        "PRAGMA legacy_alter_table = OFF",
    ]
}
