/// One PostgreSQL migration: its name, recorded in `iaplens_migrations` once applied, and its statements.
struct PostgresMigration: Sendable {
    let name: String
    let statements: [String]
}

/// The PostgreSQL store's migrations in order: the same tables, columns (in the same order), keys, checks and
/// indexes as the SQLite store's (`SQLite/Schema`), in PostgreSQL's types: `bigint` for SQLite's 64-bit `INTEGER`,
/// and `text collate "C"` so that text compares and sorts byte by byte as in SQLite, whatever the database's default
/// collation. `StoreSchemaParityTests` compares the two engines' columns.
///
/// Each is literal SQL, registered once under a fixed name and never edited after release, like SQLite's
/// migrations: nothing in them is built from today's Swift types, so a changed enum cannot rewrite history.
/// `Documentation/Scaling.md` gives each table's role under Citus.
enum PostgresMigrations {
    static let all: [PostgresMigration] = [v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11]
}
