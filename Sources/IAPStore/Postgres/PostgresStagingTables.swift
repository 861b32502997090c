/// The session-temporary tables a PostgreSQL batch is copied into before it is merged into the store: each has the
/// columns of its store table plus `ord`, the row's place in the batch, and empties itself at every commit.
enum PostgresStagingTables {
    static func create(on connection: PostgresConnection) throws {
        // `if not exists` makes every call after the first a catalog lookup per table. No flag remembers them:
        // created inside a batch's transaction, they vanish again if that batch rolls back.
        let text = "text collate \"C\""
        try connection.executeScript(
            """
            CREATE TEMP TABLE IF NOT EXISTS stage_source_files (
                ord bigint, file_sha256 \(text), path \(text), byte_count bigint, first_run_id bigint
            ) ON COMMIT DELETE ROWS;
            CREATE TEMP TABLE IF NOT EXISTS stage_completed_files (
                file_sha256 \(text), documents bigint, run_id bigint
            ) ON COMMIT DELETE ROWS;
            CREATE TEMP TABLE IF NOT EXISTS stage_documents (ord bigint, LIKE documents) ON COMMIT DELETE ROWS;
            CREATE TEMP TABLE IF NOT EXISTS stage_quarantine (ord bigint, LIKE quarantine) ON COMMIT DELETE ROWS;
            CREATE TEMP TABLE IF NOT EXISTS stage_notifications (ord bigint, LIKE notifications) ON COMMIT DELETE ROWS;
            CREATE TEMP TABLE IF NOT EXISTS stage_renewal_infos (ord bigint, LIKE renewal_infos) ON COMMIT DELETE ROWS;
            CREATE TEMP TABLE IF NOT EXISTS stage_order_lookups (ord bigint, LIKE order_lookups) ON COMMIT DELETE ROWS;
            CREATE TEMP TABLE IF NOT EXISTS stage_order_lookup_transactions (
                ord bigint, LIKE order_lookup_transactions
            ) ON COMMIT DELETE ROWS;
            CREATE TEMP TABLE IF NOT EXISTS stage_transaction_versions (
                ord bigint, LIKE transaction_versions
            ) ON COMMIT DELETE ROWS;
            CREATE TEMP TABLE IF NOT EXISTS stage_transactions (LIKE transactions) ON COMMIT DELETE ROWS;
            """)
    }
}
