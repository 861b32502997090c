/// The PostgreSQL store's secondary indexes. Its tables are built by ``PostgresMigrations``.
enum PostgresSchema {
    /// The indexes that serve analysis and `status`, not ingest's own keyed writes: a bulk load drops them and builds
    /// them again, sorted, at its end (``PostgresDocumentWriter``). The unique keys stay: `on conflict` needs them.
    static let secondaryIndexes: [(name: String, definition: String)] = [
        ("documents_by_document_id", "CREATE INDEX documents_by_document_id ON documents (document_id)"),
        ("quarantine_by_reason", "CREATE INDEX quarantine_by_reason ON quarantine (reason)"),
        (
            "notifications_by_transaction",
            "CREATE INDEX notifications_by_transaction ON notifications (transaction_id, notification_type)"
        ),
        (
            "notifications_by_type",
            "CREATE INDEX notifications_by_type ON notifications (notification_type, document_time)"
        ),
        (
            "transactions_by_original",
            "CREATE INDEX transactions_by_original ON transactions (original_transaction_id, purchase_date)"
        ),
        (
            "renewal_infos_by_subscription",
            "CREATE INDEX renewal_infos_by_subscription ON renewal_infos (original_transaction_id, document_time)"
        ),
    ]
}
