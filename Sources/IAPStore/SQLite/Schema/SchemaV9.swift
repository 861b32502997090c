// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
/// Migration "v9 apple financial reports": Apple's detailed financial reports (FINANCE_DETAIL) beside the archive
/// (Documentation/Inputs.md "Apple's financial reports"). `apple_reports` holds one row per loaded report file (its
/// source file, by content hash), `apple_report_days` one row per day a report covers (the primary key makes two
/// reports covering one day impossible, whatever a loader does), `apple_report_rows` the report's rows with exact
/// milliunit amounts and every other column kept as a JSON object.
enum SchemaV9 {
    static let statements = [
        """
        CREATE TABLE apple_reports (
            file_sha256 TEXT PRIMARY KEY REFERENCES source_files (file_sha256),
            path TEXT NOT NULL,
            vendor_name TEXT,
            period_start TEXT NOT NULL,
            period_end TEXT NOT NULL,
            row_count INTEGER NOT NULL CHECK (row_count >= 0),
            rejected_rows INTEGER NOT NULL CHECK (rejected_rows >= 0),
            run_id INTEGER NOT NULL REFERENCES runs (run_id),
            CHECK (period_start <= period_end)
        ) STRICT
        """,
        """
        CREATE TABLE apple_report_days (
            day TEXT PRIMARY KEY,
            file_sha256 TEXT NOT NULL REFERENCES apple_reports (file_sha256)
        ) STRICT
        """,
        """
        CREATE TABLE apple_report_rows (
            file_sha256 TEXT NOT NULL REFERENCES apple_reports (file_sha256),
            line INTEGER NOT NULL CHECK (line >= 1),
            transaction_date TEXT NOT NULL,
            settlement_date TEXT,
            sku TEXT NOT NULL,
            product_type_identifier TEXT NOT NULL,
            country_of_sale TEXT NOT NULL,
            quantity INTEGER NOT NULL,
            partner_share_milli INTEGER NOT NULL,
            extended_partner_share_milli INTEGER NOT NULL,
            partner_share_currency TEXT NOT NULL,
            customer_price_milli INTEGER NOT NULL,
            customer_currency TEXT NOT NULL,
            sale_or_return TEXT NOT NULL CHECK (sale_or_return IN ('S', 'R')),
            other_columns TEXT,
            PRIMARY KEY (file_sha256, line)
        ) STRICT
        """,
        "CREATE INDEX apple_report_rows_by_product ON apple_report_rows (sku, customer_currency, transaction_date)",
    ]
}
