import Foundation
import GRDB
import Testing

@testable import IAPStore

/// Migration "v11 checks without IN lists" (``SchemaV11``): the same rows are accepted and refused, the stored rows
/// stay, and the writer's inserts no longer build a temporary b-tree per row.
@Suite struct CheckListMigrationTests {
    @Test func longListsBecomeComparisonsAndShortOnesStay() {
        let sql = """
            CREATE TABLE t (
                a TEXT NOT NULL CHECK (a IN ('x', 'y')),
                b TEXT CHECK (b IN (
                    'one', 'two, with a comma', 'three'
                )),
                c INTEGER CHECK (c IN (0, 1, 2)),
                CHECK ((b = 'one') = (a IS NULL))
            ) STRICT
            """
        let expected = """
            CREATE TABLE t (
                a TEXT NOT NULL CHECK (a IN ('x', 'y')),
                b TEXT CHECK ((b = 'one' OR b = 'two, with a comma' OR b = 'three')),
                c INTEGER CHECK (c IN (0, 1, 2)),
                CHECK ((b = 'one') = (a IS NULL))
            ) STRICT
            """
        #expect(SchemaV11.rewrite(sql) == expected)
        #expect(SchemaV11.rewrite(expected) == expected)
    }

    @Test func aStoreFromV10KeepsItsRowsAndRefusesTheSameValues() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iaplens-v11-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/store.sqlite"
        do {
            let queue = try DatabaseQueue(path: path)
            try StoreMigrations.migrator.migrate(queue, upTo: "v10 consumption intents")
            try queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO runs (run_id, command, started_at, outcome, is_verified) VALUES (1, 'ingest', 't', 'completed', 1);
                        INSERT INTO source_files (file_sha256, path, byte_count, state, first_run_id) VALUES ('f', 'a.jsonl', 1, 'complete', 1);
                        INSERT INTO documents (file_sha256, line, entry, kind, outcome, document_id, environment, document_time, is_verified)
                        VALUES ('f', 1, 0, 'notification', 'accepted', 'd1', 'Production', 1, 1);
                        """)
            }
        }
        let store = try SQLiteStore(path: path)
        try store.database.writeWithoutTransaction { db in
            #expect(try String.fetchAll(db, sql: "SELECT document_id FROM documents") == ["d1"])
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            let insert = """
                INSERT INTO documents (file_sha256, line, entry, kind, outcome, document_id, environment, document_time, is_verified)
                VALUES ('f', ?, 0, 'notification', ?, 'd', 'Production', 1, 1)
                """
            for (line, outcome) in ["accepted", "other_environment", "test_notification"].enumerated() {
                try db.execute(sql: insert, arguments: [line + 2, outcome])
            }
            for outcome in ["rejected", "Accepted", ""] {
                #expect(throws: DatabaseError.self) { try db.execute(sql: insert, arguments: [9, outcome]) }
            }
            let version = """
                INSERT INTO transaction_versions (transaction_id, document_id, source, format, document_time, version_sha256,
                                                  environment, lineage_id)
                VALUES ('t', ?, ?, 'v2', 1, 'h', 'Production', 'l')
                """
            try db.execute(sql: version, arguments: ["d1", "transaction_history"])
            #expect(throws: DatabaseError.self) { try db.execute(sql: version, arguments: ["d2", "app_receipt"]) }
            // What the migration is for: no temporary b-tree in the per-row inserts ingest runs.
            for table in ["documents", "transaction_versions", "runs", "consumption_answers"] {
                let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
                let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                let program = try Row.fetchAll(
                    db,
                    sql: """
                        EXPLAIN INSERT OR IGNORE INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))
                        """, arguments: StatementArguments(columns.map { _ in DatabaseValue.null })
                ).map { $0["opcode"] as String }
                #expect(!program.contains("OpenEphemeral"), "\(table)")
            }
        }
    }
}
