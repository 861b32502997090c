// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
// Frozen history: the PostgreSQL store's migrations exactly as each was released, in literal SQL. Never edit one;
// add the next. `PostgresMigrationFreezeTests` holds the SHA-256 of every migration and fails when one changes.

extension PostgresMigrations {
    /// "v2 lineage keys", as shipped.
    static let v2 = PostgresMigration(name: "v2 lineage keys", statements: [
        #"ALTER TABLE notifications ADD COLUMN lineage_id text collate "C" NOT NULL DEFAULT ''"#,
        #"""
        UPDATE notifications SET lineage_id =
            coalesce(nullif(original_transaction_id, ''), nullif(transaction_id, ''), notification_id)
        """#,
        #"ALTER TABLE notifications ALTER COLUMN lineage_id DROP DEFAULT"#,
        #"DROP INDEX notifications_by_id"#,
        #"CREATE UNIQUE INDEX notifications_by_id ON notifications (lineage_id, notification_id)"#,
        #"ALTER TABLE transaction_versions ADD COLUMN lineage_id text collate "C" NOT NULL DEFAULT ''"#,
        #"UPDATE transaction_versions SET lineage_id = coalesce(nullif(original_transaction_id, ''), transaction_id)"#,
        #"ALTER TABLE transaction_versions ALTER COLUMN lineage_id DROP DEFAULT"#,
        #"ALTER TABLE transaction_versions DROP CONSTRAINT transaction_versions_pkey"#,
        #"ALTER TABLE transaction_versions ADD PRIMARY KEY (lineage_id, transaction_id, document_id)"#,
        #"ALTER TABLE transactions ADD COLUMN lineage_id text collate "C" NOT NULL DEFAULT ''"#,
        #"UPDATE transactions SET lineage_id = coalesce(nullif(original_transaction_id, ''), transaction_id)"#,
        #"ALTER TABLE transactions ALTER COLUMN lineage_id DROP DEFAULT"#,
        #"ALTER TABLE transactions DROP CONSTRAINT transactions_pkey"#,
        #"ALTER TABLE transactions ADD PRIMARY KEY (lineage_id, transaction_id)"#,
    ])

    /// "v3 app transaction ids and extra fields", as shipped.
    static let v3 = PostgresMigration(name: "v3 app transaction ids and extra fields", statements: [
        #"ALTER TABLE transaction_versions ADD COLUMN app_transaction_id text collate "C""#,
        #"ALTER TABLE transactions ADD COLUMN app_transaction_id text collate "C""#,
        #"ALTER TABLE notifications ADD COLUMN extra_fields text collate "C""#,
        #"ALTER TABLE transaction_versions ADD COLUMN extra_fields text collate "C""#,
        #"ALTER TABLE renewal_infos ADD COLUMN extra_fields text collate "C""#,
        #"ALTER TABLE transaction_versions DROP CONSTRAINT transaction_versions_source_check"#,
        #"ALTER TABLE transaction_versions ADD CONSTRAINT transaction_versions_source_check CHECK (source IN ('v2_notification', 'v1_notification', 'refund_history', 'order_lookup', 'transaction_history'))"#,
    ])

    /// "v4 fetch cursors", as shipped.
    static let v4 = PostgresMigration(name: "v4 fetch cursors", statements: [
        #"CREATE TABLE fetch_cursors (name text collate "C" PRIMARY KEY, value text collate "C" NOT NULL)"#,
    ])

    /// "v5 consumption answers", as shipped.
    static let v5 = PostgresMigration(name: "v5 consumption answers", statements: [
        #"""
        CREATE TABLE consumption_answers (
            notification_id text collate "C" PRIMARY KEY,
            transaction_id text collate "C" NOT NULL,
            result text collate "C" NOT NULL
                CHECK (result IN ('answered', 'refused', 'skipped_no_facts', 'skipped_no_consent')),
            body text collate "C",
            sent_at bigint NOT NULL,
            http_status bigint
        )
        """#,
    ])

    /// "v6 apple financial reports", as shipped.
    static let v6 = PostgresMigration(name: "v6 apple financial reports", statements: [
        #"""
        CREATE TABLE apple_reports (
            file_sha256 text collate "C" PRIMARY KEY REFERENCES source_files (file_sha256),
            path text collate "C" NOT NULL,
            vendor_name text collate "C",
            period_start text collate "C" NOT NULL,
            period_end text collate "C" NOT NULL,
            row_count bigint NOT NULL CHECK (row_count >= 0),
            rejected_rows bigint NOT NULL CHECK (rejected_rows >= 0),
            run_id bigint NOT NULL REFERENCES runs (run_id),
            CHECK (period_start <= period_end)
        )
        """#,
        #"""
        CREATE TABLE apple_report_days (
            day text collate "C" PRIMARY KEY,
            file_sha256 text collate "C" NOT NULL REFERENCES apple_reports (file_sha256)
        )
        """#,
        #"""
        CREATE TABLE apple_report_rows (
            file_sha256 text collate "C" NOT NULL REFERENCES apple_reports (file_sha256),
            line bigint NOT NULL CHECK (line >= 1),
            transaction_date text collate "C" NOT NULL,
            settlement_date text collate "C",
            sku text collate "C" NOT NULL,
            product_type_identifier text collate "C" NOT NULL,
            country_of_sale text collate "C" NOT NULL,
            quantity bigint NOT NULL,
            partner_share_milli bigint NOT NULL,
            extended_partner_share_milli bigint NOT NULL,
            partner_share_currency text collate "C" NOT NULL,
            customer_price_milli bigint NOT NULL,
            customer_currency text collate "C" NOT NULL,
            sale_or_return text collate "C" NOT NULL CHECK (sale_or_return IN ('S', 'R')),
            other_columns text collate "C",
            PRIMARY KEY (file_sha256, line)
        )
        """#,
        #"CREATE INDEX apple_report_rows_by_product ON apple_report_rows (sku, customer_currency, transaction_date)"#,
    ])

    /// "v7 consumption intents", as shipped.
    static let v7 = PostgresMigration(name: "v7 consumption intents", statements: [
        #"ALTER TABLE consumption_answers DROP CONSTRAINT consumption_answers_result_check"#,
        #"""
        ALTER TABLE consumption_answers ADD CONSTRAINT consumption_answers_result_check
            CHECK (result IN ('answered', 'refused', 'skipped_no_facts', 'skipped_no_consent', 'sending', 'in_doubt'))
        """#,
    ])

    /// "v8 verified notification copies", as shipped.
    static let v8 = PostgresMigration(name: "v8 verified notification copies", statements: [
        #"ALTER TABLE notifications ADD COLUMN is_verified bigint NOT NULL DEFAULT 0 CHECK (is_verified IN (0, 1))"#,
        #"""
        UPDATE notifications SET is_verified = 1
        WHERE EXISTS (
            SELECT 1 FROM documents
            WHERE documents.document_id = notifications.notification_id
                AND documents.outcome = 'accepted' AND documents.is_verified = 1)
            AND NOT EXISTS (
                SELECT 1 FROM notifications AS other
                WHERE other.notification_id = notifications.notification_id
                    AND other.lineage_id <> notifications.lineage_id)
        """#,
    ])

    /// "v9 apple payment summaries", as shipped.
    static let v9 = PostgresMigration(name: "v9 apple payment summaries", statements: [
        #"ALTER TABLE apple_report_rows ADD COLUMN region text collate "C""#,
        #"UPDATE apple_report_rows SET region = other_columns::jsonb ->> 'Region' WHERE other_columns IS NOT NULL"#,
        #"""
        CREATE TABLE apple_payment_summaries (
            file_sha256 text collate "C" PRIMARY KEY REFERENCES source_files (file_sha256),
            path text collate "C" NOT NULL,
            title text collate "C" NOT NULL,
            fiscal_month text collate "C" NOT NULL,
            is_pending bigint NOT NULL CHECK (is_pending IN (0, 1)),
            row_count bigint NOT NULL CHECK (row_count >= 0),
            run_id bigint NOT NULL REFERENCES runs (run_id)
        )
        """#,
        #"CREATE UNIQUE INDEX apple_payment_summaries_by_month ON apple_payment_summaries (fiscal_month)"#,
        #"""
        CREATE TABLE apple_payment_rows (
            file_sha256 text collate "C" NOT NULL REFERENCES apple_payment_summaries (file_sha256),
            line bigint NOT NULL CHECK (line >= 1),
            section text collate "C" NOT NULL CHECK (section IN ('paid', 'held')),
            region text collate "C" NOT NULL,
            currency text collate "C" NOT NULL,
            units_sold bigint NOT NULL,
            beginning_balance_milli bigint NOT NULL,
            earned_milli bigint NOT NULL,
            pre_tax_subtotal_milli bigint,
            input_tax_milli bigint NOT NULL,
            adjustments_milli bigint NOT NULL,
            withholding_tax_milli bigint NOT NULL,
            total_owed_milli bigint NOT NULL,
            exchange_rate text collate "C",
            proceeds_milli bigint,
            bank_currency text collate "C",
            other_columns text collate "C",
            PRIMARY KEY (file_sha256, line)
        )
        """#,
    ])

    /// "v10 consumption refusals", as shipped.
    static let v10 = PostgresMigration(name: "v10 consumption refusals", statements: [
        #"ALTER TABLE consumption_answers ADD COLUMN apple_error_code bigint"#,
        #"ALTER TABLE consumption_answers ADD COLUMN apple_error_message text collate "C""#,
    ])

    /// "v11 account reviews", as shipped.
    static let v11 = PostgresMigration(name: "v11 account reviews", statements: [
        #"""
        CREATE TABLE ref_reviews (
            line bigint PRIMARY KEY,
            account_id text collate "C" NOT NULL,
            decision text collate "C" NOT NULL CHECK (decision IN ('cleared', 'confirmed', 'watch')),
            reviewed_at_ms bigint NOT NULL,
            reviewer text collate "C" NOT NULL,
            note text collate "C" NOT NULL
        )
        """#,
    ])
}
