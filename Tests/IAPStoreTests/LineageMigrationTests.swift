import Foundation
import GRDB
import IAPTestSupport
import Testing

@testable import IAPStore

/// A store written before the lineage keys (SQLite migration "v5 lineage keys", PostgreSQL "v2 lineage keys") keeps
/// its rows and gets each row's lineage exactly as ingest computes it (``Lineage``): the `originalTransactionId`,
/// an empty one counting as missing, else the transaction, else the notification itself.
@Suite struct LineageMigrationTests {
    /// Rows as an older iaplens wrote them, without `lineage_id`.
    private static let oldRows = """
        INSERT INTO notifications (notification_id, format, notification_type, environment, document_time, raw_sha256,
            transaction_id, original_transaction_id)
        VALUES ('n-sub', 'v2', 'DID_RENEW', 'Production', 1, 'aa', 't2', 'o1'),
               ('n-test', 'v2', 'TEST', 'Production', 1, 'bb', NULL, NULL),
               ('n-empty', 'v2', 'ONE_TIME_CHARGE', 'Production', 1, 'cc', 't9', '');
        INSERT INTO transaction_versions (transaction_id, document_id, source, format, document_time, version_sha256,
            environment, original_transaction_id)
        VALUES ('t2', 'n-sub', 'v2_notification', 'v2', 1, 'v1', 'Production', 'o1'),
               ('t9', 'n-empty', 'v2_notification', 'v2', 1, 'v2', 'Production', '');
        INSERT INTO transactions (transaction_id, document_time, version_count, format, environment, original_transaction_id)
        VALUES ('t2', 1, 1, 'v2', 'Production', 'o1'), ('t9', 1, 1, 'v2', 'Production', '');
        """

    private static let expected = [
        "notifications n-empty t9", "notifications n-sub o1", "notifications n-test n-test",
        "transaction_versions t2 o1", "transaction_versions t9 t9", "transactions t2 o1", "transactions t9 t9",
    ]

    private static let lineagesSQL = """
        SELECT 'notifications ' || notification_id || ' ' || lineage_id FROM notifications
        UNION ALL SELECT 'transaction_versions ' || transaction_id || ' ' || lineage_id FROM transaction_versions
        UNION ALL SELECT 'transactions ' || transaction_id || ' ' || lineage_id FROM transactions
        ORDER BY 1
        """

    @Test func anSQLiteStoreGetsItsLineages() throws {
        let folder = NSTemporaryDirectory() + "iaplens-lineage-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            let queue = try DatabaseQueue(path: folder + "/store.sqlite")
            try StoreMigrations.migrator.migrate(queue, upTo: "v4 unique keys as indexes")
            try queue.write { db in try db.execute(sql: Self.oldRows) }
        }
        let store = try SQLiteStore(path: folder + "/store.sqlite")
        #expect(try store.read { try $0.rows(Self.lineagesSQL).compactMap { $0[0].text } } == Self.expected)
        // The lineage now leads the keys: the same transaction in its lineage is refused, in another it is not.
        _ = try store.write {
            try $0.execute(
                "INSERT INTO transactions (transaction_id, document_time, version_count, format, environment, lineage_id) VALUES ('t2', 1, 1, 'v2', 'Production', 'elsewhere')"
            )
        }
        #expect(throws: (any Error).self) {
            _ = try store.write {
                try $0.execute(
                    "INSERT INTO transactions (transaction_id, document_time, version_count, format, environment, lineage_id) VALUES ('t2', 1, 1, 'v2', 'Production', 'o1')"
                )
            }
        }
    }

    @Test func aPostgresStoreGetsItsLineages() throws {
        let url = try TestPostgres.freshStore()
        // Take a new store back to before "v2 lineage keys", as an earlier iaplens left it.
        _ = try StoreLocation(url).open().write { connection in
            try connection.executeScript(
                """
                ALTER TABLE notifications DROP COLUMN lineage_id;
                CREATE UNIQUE INDEX notifications_by_id ON notifications (notification_id);
                ALTER TABLE transaction_versions DROP COLUMN lineage_id;
                ALTER TABLE transaction_versions ADD PRIMARY KEY (transaction_id, document_id);
                ALTER TABLE transactions DROP COLUMN lineage_id;
                ALTER TABLE transactions ADD PRIMARY KEY (transaction_id);
                DELETE FROM iaplens_migrations WHERE name = 'v2 lineage keys';
                """)
            try connection.executeScript(Self.oldRows)
        }
        let store = try StoreLocation(url).open()
        #expect(try store.read { try $0.rows(Self.lineagesSQL).compactMap { $0[0].text } } == Self.expected)
        let keys = try store.read {
            try $0.rows(
                """
                SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()
                    AND indexname IN ('notifications_by_id', 'transactions_pkey', 'transaction_versions_pkey') ORDER BY indexname
                """
            ).compactMap { $0[0].text }
        }
        #expect(keys.count == 3)
        #expect(keys.allSatisfy { $0.contains("(lineage_id, ") }, "\(keys)")
    }
}
