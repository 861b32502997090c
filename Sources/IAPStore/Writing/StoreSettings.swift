/// Settings fixed when a store is first used: which app it belongs to. A store holds one app's data,
/// so a later run for another bundle ID is refused instead of mixing apps.
public struct StoreSettings: Sendable {
    private let store: any StoreEngine

    /// Creates a settings accessor.
    public init(store: any StoreEngine) {
        self.store = store
    }

    /// Records the bundle ID on first use; throws ``StoreError/otherApp`` when the store holds another app.
    public func claim(bundleId: String) throws {
        let name = store.displayName
        try store.write { connection in
            if let existing = try connection.text("SELECT value FROM store_settings WHERE key = 'bundle_id'") {
                if existing != bundleId {
                    throw StoreError.otherApp(path: name, storeBundleId: existing, requestedBundleId: bundleId)
                }
                return
            }
            try connection.execute("INSERT INTO store_settings (key, value) VALUES ('bundle_id', ?)", [.text(bundleId)])
        }
    }

    /// The bundle ID the store belongs to, if any run recorded one.
    public func bundleId() throws -> String? {
        try store.read { connection in
            try connection.text("SELECT value FROM store_settings WHERE key = 'bundle_id'")
        }
    }

    /// The store's data version: it changes whenever facts or reference data are written.
    public static func dataVersion(_ connection: any StoreConnection) throws -> Int64 {
        try connection.integer(
            "SELECT CAST(value AS \(connection.dialect.integerType)) FROM store_settings WHERE key = 'data_version'")
            ?? 0
    }

    /// Marks the data as changed, inside the caller's transaction.
    static func bumpDataVersion(_ connection: any StoreConnection) throws {
        try connection.execute(
            """
            UPDATE store_settings SET value = CAST(CAST(value AS \(connection.dialect.integerType)) + 1 AS TEXT)
            WHERE key = 'data_version'
            """)
    }
}
