import Foundation
import GRDB
import Testing

@testable import IAPStore

/// Bulk loads drop the secondary indexes and build them again; nothing else may notice.
@Suite struct SecondaryIndexesTests {
    private func temporaryStore() throws -> (SQLiteStore, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iaplens-store-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return (try SQLiteStore(path: folder + "/store.sqlite"), folder)
    }

    private func indexSQL(_ store: SQLiteStore) throws -> [String] {
        try store.database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name
                    """)
        }
    }

    @Test func droppedIndexesComeBackExactlyAsTheMigrationMadeThem() throws {
        let (store, folder) = try temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = SQLiteDocumentWriter(store: store)
        let asMigrated = try indexSQL(store)
        try writer.dropSecondaryIndexes()
        #expect(try indexSQL(store).count == asMigrated.count - SecondaryIndexes.definitions.count)
        #expect(try writer.ensureSecondaryIndexes())
        #expect(try indexSQL(store) == asMigrated)
        #expect(try !writer.ensureSecondaryIndexes())
    }

    @Test func aLoadIsBulkWhenItsNewFilesOutweighTheStore() throws {
        let (store, folder) = try temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = SQLiteDocumentWriter(store: store)
        let storeBytes = try store.database.read { db in
            try Int64.fetchOne(db, sql: "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
                ?? 0
        }
        #expect(storeBytes > 0)
        #expect(try writer.isBulkLoad(files: [("a.jsonl.gz", storeBytes)]))
        #expect(try !writer.isBulkLoad(files: [("a.jsonl.gz", storeBytes - 1)]))
        #expect(try !writer.isBulkLoad(files: []))
        // A file already read (same path and size) is not new, however large.
        try store.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO runs (run_id, command, started_at, outcome, is_verified) VALUES (1, 'test', 'now', 'completed', 1);
                    INSERT INTO source_files (file_sha256, path, byte_count, state, first_run_id)
                    VALUES ('abc', 'old.jsonl.gz', \(storeBytes * 10), 'complete', 1);
                    """)
        }
        #expect(try !writer.isBulkLoad(files: [("old.jsonl.gz", storeBytes * 10)]))
        #expect(try writer.isBulkLoad(files: [("old.jsonl.gz", storeBytes * 10 + 1)]))
    }

    @Test func newStoresUse16KBPages() throws {
        let (store, folder) = try temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try store.database.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 16_384)
    }
}
