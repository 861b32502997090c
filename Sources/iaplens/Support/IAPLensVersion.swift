import IAPStore

/// What `iaplens --version` prints: the release, and the newest store migration of each engine this build writes
/// (a store migrated further by a newer iaplens is refused, exit 64).
enum IAPLensVersion {
    static let release = "0.10.0"
    static var text: String {
        "iaplens \(release) (store: SQLite migration \(StoreSchemaVersion.sqlite), PostgreSQL migration \(StoreSchemaVersion.postgres))"
    }
}
