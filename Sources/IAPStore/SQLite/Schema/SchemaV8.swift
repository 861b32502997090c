/// Migration "v8 consumption answers": one row per consumption request `iaplens consumption` answered (PIPELINE.md
/// "Answering consumption requests"): the body sent, when, and Apple's HTTP status. A request with a row is never
/// sent again; a 202 is an answer Apple took, another status one it refused.
enum SchemaV8 {
    static let consumptionAnswers = """
        CREATE TABLE consumption_answers (
            notification_id TEXT PRIMARY KEY,
            transaction_id TEXT NOT NULL,
            body TEXT NOT NULL,
            sent_at INTEGER NOT NULL,
            http_status INTEGER NOT NULL
        ) STRICT
        """
}
