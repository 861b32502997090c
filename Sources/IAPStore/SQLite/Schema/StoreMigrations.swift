// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
import GRDB

/// The store's migrations. Each is registered once under a fixed name and never edited after release:
/// a store written by any earlier iaplens opens and is brought forward.
enum StoreMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 raw facts") { db in
            for statement in SchemaV1.statements {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v2 data version") { db in
            // Bumped by every write of facts or reference data; analysis records the version it built
            // from, so a report never presents models older than the data.
            try db.execute(sql: "INSERT INTO store_settings (key, value) VALUES ('data_version', '0')")
        }
        migrator.registerMigration("v3 raw text stays in the archive") { db in
            // The exact JWS was 85 % of the store's bytes and most of ingest's write time (a 100k archive:
            // 1.39 GB, 24 s; without it 0.17 GB, 18 s). Every document row still names the file (by content
            // hash), line and entry it came from, so the archive itself is the exact copy.
            try db.execute(sql: "DROP TABLE raw_documents")
        }
        migrator.registerMigration("v4 unique keys as indexes") { db in
            for statement in SchemaV4.statements {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v5 lineage keys") { db in
            for statement in SchemaV5.statements {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v6 app transaction ids and extra fields") { db in
            // Documentation/Reports.md "Account": Apple's appTransactionId links a transaction to its Apple Account. And every
            // field of a payload that no column holds is kept as canonical JSON (`extra_fields`), so nothing Apple
            // sends is lost between the archive and the store.
            try db.execute(sql: "ALTER TABLE transaction_versions ADD COLUMN app_transaction_id TEXT")
            try db.execute(sql: "ALTER TABLE transactions ADD COLUMN app_transaction_id TEXT")
            for table in ["notifications", "transaction_versions", "renewal_infos"] {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN extra_fields TEXT")
            }
        }
        migrator.registerMigration("v7 fetch cursors") { db in
            // Where `iaplens fetch` stands with each of Apple's endpoints, so the next fetch asks only for what is
            // new and a killed one resumes where it stopped.
            try db.execute(sql: "CREATE TABLE fetch_cursors (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT")
        }
        migrator.registerMigration("v8 consumption answers") { db in
            // Every answer `iaplens consumption` sent Apple, with Apple's status: a request is answered at most once.
            try db.execute(sql: SchemaV8.consumptionAnswers)
        }
        migrator.registerMigration("v9 apple financial reports") { db in
            for statement in SchemaV9.statements {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v10 consumption intents") { db in
            for statement in SchemaV10.statements {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v11 checks without IN lists") { db in
            try SchemaV11.migrate(db)
        }
        migrator.registerMigration("v12 verified notification copies") { db in
            for statement in SchemaV12.statements {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v13 apple payment summaries") { db in
            for statement in SchemaV13.statements {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v14 consumption refusals") { db in
            for statement in SchemaV14.statements {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v15 account reviews") { db in
            for statement in SchemaV15.statements {
                try db.execute(sql: statement)
            }
        }
        return migrator
    }
}

extension DatabaseMigrator {
    /// Refuses a store that a newer iaplens has migrated past what this build knows.
    func checkNotSuperseded(_ queue: DatabaseQueue, path: String) throws {
        if try queue.read({ db in try hasBeenSuperseded(db) }) {
            throw StoreError.newerSchema(path: path)
        }
    }
}
