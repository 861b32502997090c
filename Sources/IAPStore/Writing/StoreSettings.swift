public import GRDB

/// Settings fixed when a store is first used: which app it belongs to. A store holds one app's data,
/// so a later run for another bundle ID is refused instead of mixing apps.
public struct StoreSettings: Sendable {
    private let store: Store

    /// Creates a settings accessor.
    public init(store: Store) {
        self.store = store
    }

    /// Records the bundle ID on first use; throws ``StoreError/otherApp`` when the store holds another app.
    public func claim(bundleId: String) throws {
        let path = store.path
        try store.database.write { db in
            if let existing = try String.fetchOne(db, sql: "SELECT value FROM store_settings WHERE key = 'bundle_id'") {
                if existing != bundleId {
                    throw StoreError.otherApp(path: path, storeBundleId: existing, requestedBundleId: bundleId)
                }
                return
            }
            try db.execute(sql: "INSERT INTO store_settings (key, value) VALUES ('bundle_id', ?)", arguments: [bundleId])
        }
    }

    /// The bundle ID the store belongs to, if any run recorded one.
    public func bundleId() throws -> String? {
        try store.database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM store_settings WHERE key = 'bundle_id'")
        }
    }

    /// The store's data version: it changes whenever facts or reference data are written.
    public static func dataVersion(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM store_settings WHERE key = 'data_version'") ?? 0
    }

    /// Marks the data as changed, inside the caller's transaction.
    static func bumpDataVersion(_ db: Database) throws {
        try db.execute(sql: """
            UPDATE store_settings SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'data_version'
            """)
    }
}
