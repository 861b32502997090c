import GRDB

/// Replaces the reference tables when the user passes `--products` / `--accounts`; when a flag is not
/// given, the store keeps what an earlier run loaded.
public struct ReferenceWriter: Sendable {
    private let store: Store

    /// Creates a writer.
    public init(store: Store) {
        self.store = store
    }

    /// Replaces the product catalog.
    public func replaceProducts(_ rows: [ProductReferenceRow]) throws {
        try store.database.write { db in
            try db.execute(sql: "DELETE FROM ref_products")
            let insert = try db.cachedStatement(sql: """
                INSERT INTO ref_products (line, product_id, product_type, currency, price_milli) VALUES (?, ?, ?, ?, ?)
                """)
            for row in rows {
                try insert.execute(arguments: [row.line, row.productId, row.productType, row.currency, row.priceMilli])
            }
        }
    }

    /// Replaces the account mapping. A token listed twice keeps its first row (file order).
    public func replaceAccounts(_ rows: [AccountReferenceRow]) throws {
        try store.database.write { db in
            try db.execute(sql: "DELETE FROM ref_accounts")
            let insert = try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO ref_accounts (app_account_token, account_id, line) VALUES (?, ?, ?)
                """)
            for row in rows.sorted(by: { $0.line < $1.line }) {
                try insert.execute(arguments: [row.appAccountToken, row.accountId, row.line])
            }
        }
    }
}
