// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
/// Migration "v15 account reviews": the reviews file's decisions (`--reviews`), a reference table like `ref_accounts`,
/// replaced whole by each load (Documentation/Reports.md "The review queue").
enum SchemaV15 {
    static let statements = [
        """
        CREATE TABLE ref_reviews (
            line INTEGER PRIMARY KEY,
            account_id TEXT NOT NULL,
            decision TEXT NOT NULL CHECK ((decision = 'cleared' OR decision = 'confirmed' OR decision = 'watch')),
            reviewed_at_ms INTEGER NOT NULL,
            reviewer TEXT NOT NULL,
            note TEXT NOT NULL
        ) STRICT
        """,
    ]
}
