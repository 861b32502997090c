import Foundation
import IAPTestSupport
import Testing

@testable import IAPStore

/// The two engines' stores hold the same tables with the same columns in the same order: the PostgreSQL schema
/// (`PostgresSchema`) is written apart from SQLite's migrations, so this test is what keeps them from drifting.
@Suite struct StoreSchemaParityTests {
    static let tables = [
        "store_settings", "runs", "source_files", "documents", "quarantine", "notifications", "transaction_versions",
        "transactions", "renewal_infos", "order_lookups", "order_lookup_transactions", "ref_products", "ref_accounts",
        "fetch_cursors", "consumption_answers",
    ]

    @Test func bothEnginesHaveTheSameTablesAndColumns() throws {
        let sqlite = try SQLiteStore.inMemory()
        let postgres = try StoreLocation(try TestPostgres.freshStore()).open()
        for table in Self.tables {
            let sqliteColumns = try sqlite.read { connection in
                try connection.rows("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid").compactMap {
                    $0[0].text
                }
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
        let settings = try postgres.read {
            try $0.rows("SELECT key, value FROM store_settings ORDER BY key").map { $0.values }
        }
        #expect(
            settings
                == (try sqlite.read {
                    try $0.rows("SELECT key, value FROM store_settings ORDER BY key").map { $0.values }
                }))
    }

    @Test func openingAPostgresStoreTwiceMigratesOnceAndANewerStoreIsRefused() throws {
        let url = try TestPostgres.freshStore()
        let first = try StoreLocation(url).open()
        _ = try StoreLocation(url).open()
        let migrations = try first.read { try $0.integer("SELECT count(*) FROM iaplens_migrations") }
        #expect(migrations == Int64(PostgresMigrations.all.count))
        _ = try first.write { try $0.execute("INSERT INTO iaplens_migrations (name) VALUES ('v99 from the future')") }
        #expect(throws: StoreError.self) { _ = try StoreLocation(url).open() }
    }

    @Test func theClosedVocabulariesAreTheSchemasCheckLists() throws {
        let sqlite = try SQLiteStore.inMemory()
        let postgres = try StoreLocation(try TestPostgres.freshStore()).open()
        let lists: [(table: String, column: String, values: [String])] = [
            ("documents", "outcome", DocumentOutcome.allCases.map(\.rawValue)),
            ("notifications", "format", PayloadFormat.allCases.map(\.rawValue)),
            ("transaction_versions", "format", PayloadFormat.allCases.map(\.rawValue)),
            ("transaction_versions", "source", TransactionSource.allCases.map(\.rawValue)),
            ("renewal_infos", "format", PayloadFormat.allCases.map(\.rawValue)),
            ("consumption_answers", "result", ConsumptionAnswerResult.allCases.map(\.rawValue)),
        ]
        for list in lists {
            let sqliteText =
                try sqlite.read { try $0.text("SELECT sql FROM sqlite_master WHERE name = ?", [.text(list.table)]) }
                ?? ""
            let postgresText = try postgres.read { connection in
                try connection.rows(
                    """
                    SELECT pg_get_constraintdef(oid) FROM pg_constraint
                    WHERE conrelid = to_regclass(?) AND contype = 'c'
                    """, [.text(postgres.schema + "." + list.table)]
                ).compactMap { $0[0].text }.joined(separator: "\n")
            }
            #expect(
                Self.checkedValues(of: list.column, in: sqliteText) == list.values,
                "SQLite \(list.table).\(list.column)")
            #expect(
                Self.quotedValues(after: "(\(list.column) = ANY (ARRAY[", in: postgresText) == list.values,
                "PostgreSQL \(list.table).\(list.column)")
        }
    }

    /// The values SQLite's CHECK on `column` allows: a short list as `column IN ('a', 'b')`, a longer one as
    /// `(column = 'a' OR column = 'b' OR …)` (migration "v11 checks without IN lists").
    static func checkedValues(of column: String, in text: String) -> [String] {
        let list = quotedValues(after: "\(column) IN (", in: text)
        if !list.isEmpty { return list }
        guard let chain = text.range(of: "CHECK ((\(column) = ") else { return [] }
        return quotedValues(after: "CHECK ((", in: String(text[chain.lowerBound...]))
    }

    /// The single-quoted values of the list that follows `marker` in `text`, up to its closing parenthesis.
    static func quotedValues(after marker: String, in text: String) -> [String] {
        guard let start = text.range(of: marker) else { return [] }
        let rest = text[start.upperBound...]
        let list = rest[..<(rest.firstIndex(of: ")") ?? rest.endIndex)]
        return list.split(separator: "'", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
