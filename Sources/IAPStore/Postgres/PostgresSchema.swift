/// The store's tables on PostgreSQL: the same tables, columns (in the same order), keys, checks and indexes as the
/// SQLite store after its migrations v1–v5 (`SQLite/Schema`), in PostgreSQL's types: `bigint` for SQLite's 64-bit
/// `INTEGER`, and `text collate "C"` so that text compares and sorts byte by byte as in SQLite, whatever the
/// database's default collation. `StoreSchemaParityTests` compares the two engines' columns.
///
/// Migrations are versioned like SQLite's: each is registered once under a fixed name, never edited after release,
/// and recorded in `iaplens_migrations`. `Documentation/Scaling.md` gives each table's role under Citus.
enum PostgresSchema {
    static let migrations: [(name: String, statements: [String])] = [
        ("v1 raw facts", v1),
        ("v2 lineage keys", v2),
        ("v3 app transaction ids and extra fields", [
            "ALTER TABLE transaction_versions ADD COLUMN app_transaction_id \(text)",
            "ALTER TABLE transactions ADD COLUMN app_transaction_id \(text)",
            "ALTER TABLE notifications ADD COLUMN extra_fields \(text)",
            "ALTER TABLE transaction_versions ADD COLUMN extra_fields \(text)",
            "ALTER TABLE renewal_infos ADD COLUMN extra_fields \(text)",
            // Get Transaction History pages are their own source (SQLite's v5 rebuilt the table with it).
            "ALTER TABLE transaction_versions DROP CONSTRAINT transaction_versions_source_check",
            "ALTER TABLE transaction_versions ADD CONSTRAINT transaction_versions_source_check CHECK (source IN (\(TransactionSource.sqlList)))",
        ]),
        ("v4 fetch cursors", ["CREATE TABLE fetch_cursors (name \(text) PRIMARY KEY, value \(text) NOT NULL)"]),
        ("v5 consumption answers", [
            """
            CREATE TABLE consumption_answers (
                notification_id \(text) PRIMARY KEY,
                transaction_id \(text) NOT NULL,
                result \(text) NOT NULL
                    CHECK (result IN ('answered', 'refused', 'skipped_no_facts', 'skipped_no_consent')),
                body \(text),
                sent_at bigint NOT NULL,
                http_status bigint
            )
            """,
        ]),
        ("v6 apple financial reports", [
            """
            CREATE TABLE apple_reports (
                file_sha256 \(text) PRIMARY KEY REFERENCES source_files (file_sha256),
                path \(text) NOT NULL,
                vendor_name \(text),
                period_start \(text) NOT NULL,
                period_end \(text) NOT NULL,
                row_count bigint NOT NULL CHECK (row_count >= 0),
                rejected_rows bigint NOT NULL CHECK (rejected_rows >= 0),
                run_id bigint NOT NULL REFERENCES runs (run_id),
                CHECK (period_start <= period_end)
            )
            """,
            """
            CREATE TABLE apple_report_days (
                day \(text) PRIMARY KEY,
                file_sha256 \(text) NOT NULL REFERENCES apple_reports (file_sha256)
            )
            """,
            """
            CREATE TABLE apple_report_rows (
                file_sha256 \(text) NOT NULL REFERENCES apple_reports (file_sha256),
                line bigint NOT NULL CHECK (line >= 1),
                transaction_date \(text) NOT NULL,
                settlement_date \(text),
                sku \(text) NOT NULL,
                product_type_identifier \(text) NOT NULL,
                country_of_sale \(text) NOT NULL,
                quantity bigint NOT NULL,
                partner_share_milli bigint NOT NULL,
                extended_partner_share_milli bigint NOT NULL,
                partner_share_currency \(text) NOT NULL,
                customer_price_milli bigint NOT NULL,
                customer_currency \(text) NOT NULL,
                sale_or_return \(text) NOT NULL CHECK (sale_or_return IN ('S', 'R')),
                other_columns \(text),
                PRIMARY KEY (file_sha256, line)
            )
            """,
            "CREATE INDEX apple_report_rows_by_product ON apple_report_rows (sku, customer_currency, transaction_date)",
        ]),
        // The intent before sending, and the intents a run left behind (SchemaV10 on SQLite).
        ("v7 consumption intents", [
            "ALTER TABLE consumption_answers DROP CONSTRAINT consumption_answers_result_check",
            """
            ALTER TABLE consumption_answers ADD CONSTRAINT consumption_answers_result_check
                CHECK (result IN ('answered', 'refused', 'skipped_no_facts', 'skipped_no_consent', 'sending', 'in_doubt'))
            """,
        ]),
        // Whether the stored copy of a notification was verified (SchemaV12 on SQLite, which explains the backfill).
        ("v8 verified notification copies", [
            "ALTER TABLE notifications ADD COLUMN is_verified bigint NOT NULL DEFAULT 0 CHECK (is_verified IN (0, 1))",
            """
            UPDATE notifications SET is_verified = 1
            WHERE EXISTS (
                SELECT 1 FROM documents
                WHERE documents.document_id = notifications.notification_id
                    AND documents.outcome = 'accepted' AND documents.is_verified = 1)
                AND NOT EXISTS (
                    SELECT 1 FROM notifications AS other
                    WHERE other.notification_id = notifications.notification_id
                        AND other.lineage_id <> notifications.lineage_id)
            """,
        ]),
        // Apple's payment summaries and the Region of each report row (SchemaV13 on SQLite).
        ("v9 apple payment summaries", [
            "ALTER TABLE apple_report_rows ADD COLUMN region text collate \"C\"",
            "UPDATE apple_report_rows SET region = other_columns::jsonb ->> 'Region' WHERE other_columns IS NOT NULL",
            """
            CREATE TABLE apple_payment_summaries (
                file_sha256 text collate "C" PRIMARY KEY REFERENCES source_files (file_sha256),
                path text collate "C" NOT NULL,
                title text collate "C" NOT NULL,
                fiscal_month text collate "C" NOT NULL,
                is_pending bigint NOT NULL CHECK (is_pending IN (0, 1)),
                row_count bigint NOT NULL CHECK (row_count >= 0),
                run_id bigint NOT NULL REFERENCES runs (run_id)
            )
            """,
            "CREATE UNIQUE INDEX apple_payment_summaries_by_month ON apple_payment_summaries (fiscal_month)",
            """
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
            """,
        ]),
        // What Apple said when it refused an answer (SchemaV14 on SQLite).
        ("v10 consumption refusals", [
            "ALTER TABLE consumption_answers ADD COLUMN apple_error_code bigint",
            "ALTER TABLE consumption_answers ADD COLUMN apple_error_message text collate \"C\"",
        ]),
        // The reviews file's decisions (SchemaV15 on SQLite).
        ("v11 account reviews", [
            """
            CREATE TABLE ref_reviews (
                line bigint PRIMARY KEY,
                account_id text collate "C" NOT NULL,
                decision text collate "C" NOT NULL CHECK (decision IN ('cleared', 'confirmed', 'watch')),
                reviewed_at_ms bigint NOT NULL,
                reviewer text collate "C" NOT NULL,
                note text collate "C" NOT NULL
            )
            """,
        ]),
    ]

    private static let text = "text collate \"C\""

    private static let v1: [String] = [
        """
        CREATE TABLE store_settings (
            key \(text) PRIMARY KEY,
            value \(text) NOT NULL
        )
        """,
        "INSERT INTO store_settings (key, value) VALUES ('data_version', '0')",
        """
        CREATE TABLE runs (
            run_id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            command \(text) NOT NULL,
            started_at \(text) NOT NULL,
            finished_at \(text),
            outcome \(text) NOT NULL CHECK (outcome IN ('running', 'completed', 'failed')),
            is_verified bigint NOT NULL CHECK (is_verified IN (0, 1)),
            files_read bigint NOT NULL DEFAULT 0,
            files_skipped bigint NOT NULL DEFAULT 0,
            documents_read bigint NOT NULL DEFAULT 0,
            documents_quarantined bigint NOT NULL DEFAULT 0,
            message \(text)
        )
        """,
        """
        CREATE TABLE source_files (
            file_sha256 \(text) PRIMARY KEY,
            path \(text) NOT NULL,
            byte_count bigint NOT NULL CHECK (byte_count >= 0),
            state \(text) NOT NULL CHECK (state IN ('reading', 'complete')),
            documents bigint NOT NULL DEFAULT 0 CHECK (documents >= 0),
            first_run_id bigint NOT NULL REFERENCES runs (run_id),
            completed_run_id bigint REFERENCES runs (run_id)
        )
        """,
        """
        CREATE TABLE documents (
            file_sha256 \(text) NOT NULL REFERENCES source_files (file_sha256),
            line bigint NOT NULL CHECK (line >= 0),
            entry bigint NOT NULL CHECK (entry >= 0),
            kind \(text) NOT NULL,
            outcome \(text) NOT NULL CHECK (outcome IN (\(DocumentOutcome.sqlList))),
            document_id \(text),
            environment \(text),
            document_time bigint,
            is_verified bigint NOT NULL CHECK (is_verified IN (0, 1)),
            PRIMARY KEY (file_sha256, line, entry),
            CHECK ((outcome = 'quarantined') = (document_id IS NULL))
        )
        """,
        """
        CREATE TABLE quarantine (
            file_sha256 \(text) NOT NULL,
            line bigint NOT NULL,
            entry bigint NOT NULL,
            path \(text) NOT NULL,
            reason \(text) NOT NULL,
            message \(text) NOT NULL,
            excerpt \(text) NOT NULL,
            PRIMARY KEY (file_sha256, line, entry),
            FOREIGN KEY (file_sha256, line, entry) REFERENCES documents (file_sha256, line, entry)
        )
        """,
        """
        CREATE TABLE notifications (
            notification_id \(text) NOT NULL,
            format \(text) NOT NULL CHECK (format IN (\(PayloadFormat.sqlList))),
            notification_type \(text) NOT NULL,
            subtype \(text),
            environment \(text) NOT NULL,
            bundle_id \(text),
            app_apple_id bigint,
            version \(text),
            signed_date bigint,
            received_at bigint,
            document_time bigint NOT NULL,
            transaction_id \(text),
            original_transaction_id \(text),
            product_id \(text),
            status bigint,
            consumption_request_reason \(text),
            raw_sha256 \(text) NOT NULL
        )
        """,
        "CREATE UNIQUE INDEX notifications_by_id ON notifications (notification_id)",
        """
        CREATE TABLE transaction_versions (
            transaction_id \(text) NOT NULL,
            document_id \(text) NOT NULL,
            source \(text) NOT NULL CHECK (source IN (\(TransactionSource.namesOfV1))),
            format \(text) NOT NULL CHECK (format IN (\(PayloadFormat.sqlList))),
            document_time bigint NOT NULL,
            version_sha256 \(text) NOT NULL,
            environment \(text) NOT NULL,
            \(transactionFieldColumns),
            PRIMARY KEY (transaction_id, document_id)
        )
        """,
        """
        CREATE TABLE transactions (
            transaction_id \(text) PRIMARY KEY,
            document_time bigint NOT NULL,
            version_count bigint NOT NULL,
            format \(text) NOT NULL,
            environment \(text) NOT NULL,
            \(transactionFieldColumns)
        )
        """,
        """
        CREATE TABLE renewal_infos (
            document_id \(text) NOT NULL,
            original_transaction_id \(text) NOT NULL,
            format \(text) NOT NULL CHECK (format IN (\(PayloadFormat.sqlList))),
            document_time bigint NOT NULL,
            environment \(text) NOT NULL,
            product_id \(text),
            auto_renew_product_id \(text),
            auto_renew_status bigint,
            expiration_intent bigint,
            is_in_billing_retry_period bigint,
            grace_period_expires_date bigint,
            price_increase_status bigint,
            renewal_date bigint,
            signed_date bigint,
            app_account_token \(text)
        )
        """,
        "CREATE UNIQUE INDEX renewal_infos_by_key ON renewal_infos (document_id, original_transaction_id)",
        """
        CREATE TABLE order_lookups (
            lookup_id \(text) PRIMARY KEY,
            order_id \(text),
            status bigint NOT NULL,
            environment \(text),
            document_time bigint,
            received_at bigint,
            note \(text)
        )
        """,
        """
        CREATE TABLE order_lookup_transactions (
            lookup_id \(text) NOT NULL REFERENCES order_lookups (lookup_id),
            transaction_id \(text) NOT NULL,
            PRIMARY KEY (lookup_id, transaction_id)
        )
        """,
        """
        CREATE TABLE ref_products (
            line bigint PRIMARY KEY,
            product_id \(text) NOT NULL,
            product_type \(text) NOT NULL
                CHECK (product_type IN ('auto_renewable', 'non_renewing', 'consumable', 'non_consumable')),
            currency \(text) NOT NULL,
            price_milli bigint NOT NULL CHECK (price_milli >= 0)
        )
        """,
        """
        CREATE TABLE ref_accounts (
            app_account_token \(text) PRIMARY KEY,
            account_id \(text) NOT NULL,
            line bigint NOT NULL
        )
        """,
    ] + secondaryIndexes.map(\.definition)

    /// SQLite's "v5 lineage keys" (`SchemaV5`): `lineage_id` (``Lineage``) leads the unique keys of the three lineage
    /// tables, the column Citus would distribute them by. A store with rows gets the lineage computed as ingest
    /// computes it; the column then loses its temporary default, so every writer must name it.
    private static let v2: [String] = {
        let present = { (column: String) in "nullif(\(column), '')" }
        let transactionLineage = "coalesce(\(present("original_transaction_id")), transaction_id)"
        return [
            "ALTER TABLE notifications ADD COLUMN lineage_id \(text) NOT NULL DEFAULT ''",
            """
            UPDATE notifications SET lineage_id =
                coalesce(\(present("original_transaction_id")), \(present("transaction_id")), notification_id)
            """,
            "ALTER TABLE notifications ALTER COLUMN lineage_id DROP DEFAULT",
            "DROP INDEX notifications_by_id",
            "CREATE UNIQUE INDEX notifications_by_id ON notifications (lineage_id, notification_id)",
            "ALTER TABLE transaction_versions ADD COLUMN lineage_id \(text) NOT NULL DEFAULT ''",
            "UPDATE transaction_versions SET lineage_id = \(transactionLineage)",
            "ALTER TABLE transaction_versions ALTER COLUMN lineage_id DROP DEFAULT",
            "ALTER TABLE transaction_versions DROP CONSTRAINT transaction_versions_pkey",
            "ALTER TABLE transaction_versions ADD PRIMARY KEY (lineage_id, transaction_id, document_id)",
            "ALTER TABLE transactions ADD COLUMN lineage_id \(text) NOT NULL DEFAULT ''",
            "UPDATE transactions SET lineage_id = \(transactionLineage)",
            "ALTER TABLE transactions ALTER COLUMN lineage_id DROP DEFAULT",
            "ALTER TABLE transactions DROP CONSTRAINT transactions_pkey",
            "ALTER TABLE transactions ADD PRIMARY KEY (lineage_id, transaction_id)",
        ]
    }()

    /// The indexes that serve analysis and `status`, not ingest's own keyed writes: a bulk load drops them and builds
    /// them again, sorted, at its end (``PostgresDocumentWriter``). The unique keys stay: `on conflict` needs them.
    static let secondaryIndexes: [(name: String, definition: String)] = [
        ("documents_by_document_id", "CREATE INDEX documents_by_document_id ON documents (document_id)"),
        ("quarantine_by_reason", "CREATE INDEX quarantine_by_reason ON quarantine (reason)"),
        ("notifications_by_transaction",
         "CREATE INDEX notifications_by_transaction ON notifications (transaction_id, notification_type)"),
        ("notifications_by_type", "CREATE INDEX notifications_by_type ON notifications (notification_type, document_time)"),
        ("transactions_by_original",
         "CREATE INDEX transactions_by_original ON transactions (original_transaction_id, purchase_date)"),
        ("renewal_infos_by_subscription",
         "CREATE INDEX renewal_infos_by_subscription ON renewal_infos (original_transaction_id, document_time)"),
    ]

    /// The columns of ``TransactionColumns/namesOfV1`` with their PostgreSQL types.
    private static var transactionFieldColumns: String {
        let integers: Set<String> = [
            "purchase_date", "original_purchase_date", "expires_date", "quantity", "signed_date", "revocation_date",
            "revocation_reason", "revocation_percentage", "is_upgraded", "is_trial_period", "offer_type", "price",
        ]
        return TransactionColumns.namesOfV1.map { "\($0) \(integers.contains($0) ? "bigint" : text)" }
            .joined(separator: ",\n    ")
    }
}
