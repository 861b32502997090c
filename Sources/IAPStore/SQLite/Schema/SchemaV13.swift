// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
/// Migration "v13 apple payment summaries": Apple's payment summaries (one per fiscal month, its region rows, paid and
/// held) and the `Region` of each financial report row, which ties Apple's books to the payment
/// (Documentation/Reports.md "apple_payments.csv"). Rows loaded before keep their `Region` in `other_columns`, from
/// where the migration copies it.
enum SchemaV13 {
    static let statements = [
        "ALTER TABLE apple_report_rows ADD COLUMN region TEXT",
        "UPDATE apple_report_rows SET region = json_extract(other_columns, '$.Region') WHERE other_columns IS NOT NULL",
        """
        CREATE TABLE apple_payment_summaries (
            file_sha256 TEXT PRIMARY KEY REFERENCES source_files (file_sha256),
            path TEXT NOT NULL,
            title TEXT NOT NULL,
            fiscal_month TEXT NOT NULL,
            is_pending INTEGER NOT NULL CHECK (is_pending IN (0, 1)),
            row_count INTEGER NOT NULL CHECK (row_count >= 0),
            run_id INTEGER NOT NULL REFERENCES runs (run_id)
        ) STRICT
        """,
        "CREATE UNIQUE INDEX apple_payment_summaries_by_month ON apple_payment_summaries (fiscal_month)",
        """
        CREATE TABLE apple_payment_rows (
            file_sha256 TEXT NOT NULL REFERENCES apple_payment_summaries (file_sha256),
            line INTEGER NOT NULL CHECK (line >= 1),
            section TEXT NOT NULL CHECK (section IN ('paid', 'held')),
            region TEXT NOT NULL,
            currency TEXT NOT NULL,
            units_sold INTEGER NOT NULL,
            beginning_balance_milli INTEGER NOT NULL,
            earned_milli INTEGER NOT NULL,
            pre_tax_subtotal_milli INTEGER,
            input_tax_milli INTEGER NOT NULL,
            adjustments_milli INTEGER NOT NULL,
            withholding_tax_milli INTEGER NOT NULL,
            total_owed_milli INTEGER NOT NULL,
            exchange_rate TEXT,
            proceeds_milli INTEGER,
            bank_currency TEXT,
            other_columns TEXT,
            PRIMARY KEY (file_sha256, line)
        ) STRICT
        """,
    ]
}
