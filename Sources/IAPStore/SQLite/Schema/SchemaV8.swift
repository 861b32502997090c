// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
/// Migration "v8 consumption answers": one row per consumption request `iaplens consumption` dealt with (Documentation/Pipeline.md
/// "Answering consumption requests"): `answered` (Apple took it, 202) or `refused` (another status), with the body
/// and when, is final: such a request is never sent again; `skipped_no_facts` / `skipped_no_consent` is the latest
/// reason a request was not sent, replaced if a later run sends it.
enum SchemaV8 {
    static let consumptionAnswers = """
        CREATE TABLE consumption_answers (
            notification_id TEXT PRIMARY KEY,
            transaction_id TEXT NOT NULL,
            result TEXT NOT NULL
                CHECK (result IN ('answered', 'refused', 'skipped_no_facts', 'skipped_no_consent')),
            body TEXT,
            sent_at INTEGER NOT NULL,
            http_status INTEGER
        ) STRICT
        """
}
