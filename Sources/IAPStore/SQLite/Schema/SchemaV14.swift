// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
/// Migration "v14 consumption refusals": what Apple said when it refused an answer (its `errorCode` and
/// `errorMessage`), so that a refusal is shown and acted on, not only counted.
enum SchemaV14 {
    static let statements = [
        "ALTER TABLE consumption_answers ADD COLUMN apple_error_code INTEGER",
        "ALTER TABLE consumption_answers ADD COLUMN apple_error_message TEXT",
    ]
}
