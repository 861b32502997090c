import IAPStore

extension StoreKind {
    /// A new, empty store of this kind: SQLite in memory, or a schema of its own on the test server (named after the
    /// calling test, so that a failure's leftovers say whose they are).
    public func freshStore(_ name: String = #function) throws -> any StoreEngine {
        switch self {
        case .sqlite: return try SQLiteStore.inMemory()
        case .postgres: return try StoreLocation(try TestPostgres.freshStore(name)).open()
        }
    }
}
