// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
/// Migration "v10 consumption intents": `consumption_answers.result` may also be `sending` (the intent, recorded
/// before the body leaves, so a request is sent at most once whatever happens next) and `in_doubt` (an intent a
/// run left behind: it may have reached Apple; never sent again, reported for a person to check). SQLite cannot
/// change a CHECK in place: the table is rebuilt with its rows.
enum SchemaV10 {
    static let statements = [
        """
        CREATE TABLE consumption_answers_v10 (
            notification_id TEXT PRIMARY KEY,
            transaction_id TEXT NOT NULL,
            result TEXT NOT NULL
                CHECK (result IN ('answered', 'refused', 'skipped_no_facts', 'skipped_no_consent', 'sending', 'in_doubt')),
            body TEXT,
            sent_at INTEGER NOT NULL,
            http_status INTEGER
        ) STRICT
        """,
        "INSERT INTO consumption_answers_v10 SELECT * FROM consumption_answers",
        "DROP TABLE consumption_answers",
        "ALTER TABLE consumption_answers_v10 RENAME TO consumption_answers",
    ]
}
