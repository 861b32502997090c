import IAPStore
import IAPTestSupport
import Testing

/// The two engines' stores hold the same tables with the same columns in the same order: the PostgreSQL schema
/// (`PostgresSchema`) is written apart from SQLite's migrations, so this test is what keeps them from drifting.
@Suite struct StoreSchemaParityTests {
    static let tables = [
        "store_settings", "runs", "source_files", "documents", "quarantine", "notifications", "transaction_versions",
        "transactions", "renewal_infos", "order_lookups", "order_lookup_transactions", "ref_products", "ref_accounts",
    ]

    @Test func bothEnginesHaveTheSameTablesAndColumns() throws {
        let sqlite = try SQLiteStore.inMemory()
        let postgres = try StoreLocation(try TestPostgres.freshStore()).open()
        for table in Self.tables {
            let sqliteColumns = try sqlite.read { connection in
                try connection.rows("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid").compactMap { $0[0].text }
            }
            let postgresColumns = try postgres.read { connection in
                try connection.rows(
                    """
                    SELECT column_name::text FROM information_schema.columns
                    WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position
                    """, [.text(postgres.schema), .text(table)]
                ).compactMap { $0[0].text }
            }
            #expect(!sqliteColumns.isEmpty, "\(table) missing on SQLite")
            #expect(sqliteColumns == postgresColumns, "\(table)")
        }
        // The same unique keys: each engine refuses the same second row.
        let settings = try postgres.read { try $0.rows("SELECT key, value FROM store_settings ORDER BY key").map { $0.values } }
        #expect(settings == (try sqlite.read { try $0.rows("SELECT key, value FROM store_settings ORDER BY key").map { $0.values } }))
    }

    @Test func openingAPostgresStoreTwiceMigratesOnceAndANewerStoreIsRefused() throws {
        let url = try TestPostgres.freshStore()
        let first = try StoreLocation(url).open()
        _ = try StoreLocation(url).open()
        let migrations = try first.read { try $0.integer("SELECT count(*) FROM iaplens_migrations") }
        #expect(migrations == 1)
        _ = try first.write { try $0.execute("INSERT INTO iaplens_migrations (name) VALUES ('v99 from the future')") }
        #expect(throws: StoreError.self) { _ = try StoreLocation(url).open() }
    }
}
