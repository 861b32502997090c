import GRDB

/// The newest store migration of each engine this build writes (`iaplens --version`): a store migrated further by a
/// newer iaplens is refused.
public enum StoreSchemaVersion {
    /// `v15`: the number of the SQLite store's last migration.
    public static var sqlite: String { number(StoreMigrations.migrator.migrations.last) }
    /// `v11`: the number of the PostgreSQL store's last migration.
    public static var postgres: String { number(PostgresMigrations.all.last?.name) }

    /// `v15 account reviews` → `v15`.
    private static func number(_ name: String?) -> String {
        name.map { String($0.prefix { $0 != " " }) } ?? "none"
    }
}
