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
            // Loading the same catalog again is no change: the built models stay current.
            let existing = try Row.fetchAll(db, sql: "SELECT line, product_id, product_type, currency, price_milli FROM ref_products ORDER BY line")
                .map { ProductReferenceRow(line: $0[0], productId: $0[1], productType: $0[2], currency: $0[3], priceMilli: $0[4]) }
            if existing == rows.sorted(by: { $0.line < $1.line }) { return }
            try db.execute(sql: "DELETE FROM ref_products")
            try StoreSettings.bumpDataVersion(db)
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
            let existing = try Row.fetchAll(db, sql: "SELECT line, app_account_token, account_id FROM ref_accounts ORDER BY line")
                .map { AccountReferenceRow(line: $0[0], appAccountToken: $0[1], accountId: $0[2]) }
            let first = Dictionary(rows.sorted(by: { $0.line < $1.line }).map { ($0.appAccountToken, $0) }, uniquingKeysWith: { a, _ in a })
            if existing == first.values.sorted(by: { $0.line < $1.line }) { return }
            try db.execute(sql: "DELETE FROM ref_accounts")
            try StoreSettings.bumpDataVersion(db)
            let insert = try db.cachedStatement(sql: """
                INSERT INTO ref_accounts (app_account_token, account_id, line) VALUES (?, ?, ?)
                """)
            // Each token's first row, inserted in key order: the primary key grows at its end instead of taking
            // random UUIDs (a 114k-row mapping: 0.45 s → 0.2 s).
            for row in first.values.sorted(by: { $0.appAccountToken < $1.appAccountToken }) {
                try insert.execute(arguments: [row.appAccountToken, row.accountId, row.line])
            }
        }
    }
}
