// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
/// Migration "v12 verified notification copies": each stored notification says whether the copy it holds was
/// verified (`is_verified`), so a decision taken on a notification's content (answering a consumption request) rests
/// on a copy whose signature was checked, never on an unverified copy that reuses a genuine notification's ID.
///
/// A store written before knew verification per document only, not per stored copy: a notification is marked
/// verified there when a verified, accepted document carries its ID and the store holds no other copy of that ID.
enum SchemaV12 {
    static let statements = [
        "ALTER TABLE notifications ADD COLUMN is_verified INTEGER NOT NULL DEFAULT 0 CHECK (is_verified IN (0, 1))",
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
    ]
}
