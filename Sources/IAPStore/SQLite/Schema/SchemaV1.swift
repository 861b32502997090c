// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
/// The first schema of the store: raw facts only, written by ingest. Derived models (analytics) are
/// views and tables built from these by `iaplens analyze`, never written by ingest.
///
/// Conventions: snake_case plural tables, STRICT, timestamps in Unix milliseconds (`INTEGER`),
/// money in integer milliunits, enum-valued fields kept as the raw text Apple sent (no CHECK on the
/// set of values, so a new Apple value never breaks ingest).
enum SchemaV1 {
    static let statements: [String] = [
        """
        -- One row per store-wide setting fixed by the first ingest (bundle_id, app_apple_id).
        CREATE TABLE store_settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) STRICT
        """,
        """
        -- One row per invocation of a stage. Wall-clock times live here only (status), never in reports.
        CREATE TABLE runs (
            run_id INTEGER PRIMARY KEY,
            command TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            outcome TEXT NOT NULL CHECK (outcome IN ('running', 'completed', 'failed')),
            is_verified INTEGER NOT NULL CHECK (is_verified IN (0, 1)),
            files_read INTEGER NOT NULL DEFAULT 0,
            files_skipped INTEGER NOT NULL DEFAULT 0,
            documents_read INTEGER NOT NULL DEFAULT 0,
            documents_quarantined INTEGER NOT NULL DEFAULT 0,
            message TEXT
        ) STRICT
        """,
        """
        -- One row per input file ever read, keyed by content: a file already complete is skipped.
        CREATE TABLE source_files (
            file_sha256 TEXT PRIMARY KEY,
            path TEXT NOT NULL,
            byte_count INTEGER NOT NULL CHECK (byte_count >= 0),
            state TEXT NOT NULL CHECK (state IN ('reading', 'complete')),
            documents INTEGER NOT NULL DEFAULT 0 CHECK (documents >= 0),
            first_run_id INTEGER NOT NULL REFERENCES runs (run_id),
            completed_run_id INTEGER REFERENCES runs (run_id)
        ) STRICT
        """,
        """
        -- One row per document found in a file: a notification line (entry 0), or one entry (1...) of a
        -- history/refund/order page. Keyed by position so re-reading a half-read file counts nothing twice.
        CREATE TABLE documents (
            file_sha256 TEXT NOT NULL REFERENCES source_files (file_sha256),
            line INTEGER NOT NULL CHECK (line >= 0),
            entry INTEGER NOT NULL CHECK (entry >= 0),
            kind TEXT NOT NULL,
            outcome TEXT NOT NULL
                CHECK (outcome IN ('accepted', 'other_environment', 'test_notification', 'quarantined')),
            document_id TEXT,
            environment TEXT,
            document_time INTEGER,
            is_verified INTEGER NOT NULL CHECK (is_verified IN (0, 1)),
            PRIMARY KEY (file_sha256, line, entry),
            CHECK ((outcome = 'quarantined') = (document_id IS NULL))
        ) STRICT
        """,
        "CREATE INDEX documents_by_document_id ON documents (document_id)",
        """
        -- One row per document that could not be accepted, with a reason code and a sentence.
        CREATE TABLE quarantine (
            file_sha256 TEXT NOT NULL,
            line INTEGER NOT NULL,
            entry INTEGER NOT NULL,
            path TEXT NOT NULL,
            reason TEXT NOT NULL,
            message TEXT NOT NULL,
            excerpt TEXT NOT NULL,
            PRIMARY KEY (file_sha256, line, entry),
            FOREIGN KEY (file_sha256, line, entry) REFERENCES documents (file_sha256, line, entry)
        ) STRICT
        """,
        "CREATE INDEX quarantine_by_reason ON quarantine (reason)",
        """
        -- The exact signed text (JWS) or canonical V1 body of each stored document: the store can be rebuilt.
        CREATE TABLE raw_documents (
            document_id TEXT PRIMARY KEY,
            format TEXT NOT NULL CHECK (format IN ('jws', 'v1_json')),
            body TEXT NOT NULL
        ) STRICT
        """,
        """
        -- One row per notification (V2 by notificationUUID, V1 by 'v1:' || SHA-256 of the canonical body).
        CREATE TABLE notifications (
            notification_id TEXT PRIMARY KEY,
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
        "CREATE INDEX notifications_by_transaction ON notifications (transaction_id, notification_type)",
        "CREATE INDEX notifications_by_type ON notifications (notification_type, document_time)",
        """
        -- One row per (transaction, document that carried it): every snapshot Apple sent of a transaction.
        CREATE TABLE transaction_versions (
            transaction_id TEXT NOT NULL,
            document_id TEXT NOT NULL,
            source TEXT NOT NULL
                CHECK (source IN ('v2_notification', 'v1_notification', 'refund_history', 'order_lookup')),
            format TEXT NOT NULL CHECK (format IN ('v2', 'v1')),
            document_time INTEGER NOT NULL,
            version_sha256 TEXT NOT NULL,
            environment TEXT NOT NULL,
            original_transaction_id TEXT,
            web_order_line_item_id TEXT,
            bundle_id TEXT,
            product_id TEXT,
            subscription_group_identifier TEXT,
            purchase_date INTEGER,
            original_purchase_date INTEGER,
            expires_date INTEGER,
            quantity INTEGER,
            type TEXT,
            app_account_token TEXT,
            in_app_ownership_type TEXT,
            signed_date INTEGER,
            revocation_date INTEGER,
            revocation_reason INTEGER,
            revocation_type TEXT,
            revocation_percentage INTEGER,
            is_upgraded INTEGER,
            is_trial_period INTEGER,
            offer_type INTEGER,
            offer_discount_type TEXT,
            storefront TEXT,
            transaction_reason TEXT,
            currency TEXT,
            price INTEGER,
            PRIMARY KEY (transaction_id, document_id)
        ) STRICT
        """,
        """
        -- One row per transaction: its versions merged, the newest document time winning field by field;
        -- the revocation fields come as a group from the newest version (snapshot semantics).
        CREATE TABLE transactions (
            transaction_id TEXT PRIMARY KEY,
            document_time INTEGER NOT NULL,
            version_count INTEGER NOT NULL,
            format TEXT NOT NULL,
            environment TEXT NOT NULL,
            original_transaction_id TEXT,
            web_order_line_item_id TEXT,
            bundle_id TEXT,
            product_id TEXT,
            subscription_group_identifier TEXT,
            purchase_date INTEGER,
            original_purchase_date INTEGER,
            expires_date INTEGER,
            quantity INTEGER,
            type TEXT,
            app_account_token TEXT,
            in_app_ownership_type TEXT,
            signed_date INTEGER,
            revocation_date INTEGER,
            revocation_reason INTEGER,
            revocation_type TEXT,
            revocation_percentage INTEGER,
            is_upgraded INTEGER,
            is_trial_period INTEGER,
            offer_type INTEGER,
            offer_discount_type TEXT,
            storefront TEXT,
            transaction_reason TEXT,
            currency TEXT,
            price INTEGER
        ) STRICT
        """,
        "CREATE INDEX transactions_by_original ON transactions (original_transaction_id, purchase_date)",
        """
        -- One row per renewal-state snapshot: V2 signedRenewalInfo or one V1 pending_renewal_info entry.
        CREATE TABLE renewal_infos (
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
            app_account_token TEXT,
            PRIMARY KEY (document_id, original_transaction_id)
        ) STRICT
        """,
        "CREATE INDEX renewal_infos_by_subscription ON renewal_infos (original_transaction_id, document_time)",
        """
        -- One row per looked-up order (Look Up Order ID). Without an orderId in the archive the key is
        -- 'generated:' || SHA-256 of the canonical body, and note says so.
        CREATE TABLE order_lookups (
            lookup_id TEXT PRIMARY KEY,
            order_id TEXT,
            status INTEGER NOT NULL,
            environment TEXT,
            document_time INTEGER,
            received_at INTEGER,
            note TEXT
        ) STRICT
        """,
        """
        CREATE TABLE order_lookup_transactions (
            lookup_id TEXT NOT NULL REFERENCES order_lookups (lookup_id),
            transaction_id TEXT NOT NULL,
            PRIMARY KEY (lookup_id, transaction_id)
        ) STRICT
        """,
        """
        -- Reference files, replaced whenever --products / --accounts are given.
        CREATE TABLE ref_products (
            line INTEGER PRIMARY KEY,
            product_id TEXT NOT NULL,
            product_type TEXT NOT NULL
                CHECK (product_type IN ('auto_renewable', 'non_renewing', 'consumable', 'non_consumable')),
            currency TEXT NOT NULL,
            price_milli INTEGER NOT NULL CHECK (price_milli >= 0)
        ) STRICT
        """,
        """
        CREATE TABLE ref_accounts (
            app_account_token TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            line INTEGER NOT NULL
        ) STRICT
        """,
    ]
}
