/// Replaces the reference tables when the user passes `--products` / `--accounts`; when a flag is not
/// given, the store keeps what an earlier run loaded.
public struct ReferenceWriter: Sendable {
    private let store: any StoreEngine

    /// Creates a writer.
    public init(store: any StoreEngine) {
        self.store = store
    }

    /// Replaces the product catalog.
    public func replaceProducts(_ rows: [ProductReferenceRow]) throws {
        try store.write { connection in
            // Loading the same catalog again is no change: the built models stay current.
            let existing = try connection.rows(
                "SELECT line, product_id, product_type, currency, price_milli FROM ref_products ORDER BY line"
            ).map { row in
                ProductReferenceRow(
                    line: Int(row[0].integer ?? 0), productId: row[1].text ?? "", productType: row[2].text ?? "",
                    currency: row[3].text ?? "", priceMilli: row[4].integer ?? 0)
            }
            if existing == rows.sorted(by: { $0.line < $1.line }) { return }
            try connection.execute("DELETE FROM ref_products")
            try StoreSettings.bumpDataVersion(connection)
            for row in rows {
                try connection.execute(
                    "INSERT INTO ref_products (line, product_id, product_type, currency, price_milli) VALUES (?, ?, ?, ?, ?)",
                    [
                        SQLValue(row.line), .text(row.productId), .text(row.productType), .text(row.currency),
                        .integer(row.priceMilli),
                    ])
            }
        }
    }

    /// Replaces the account mapping. A token listed twice keeps its first row (file order).
    public func replaceAccounts(_ rows: [AccountReferenceRow]) throws {
        // Every run that passes --accounts compares the file with the stored mapping, so this stays linear: each
        // token's first row in line order, kept by a set, instead of a dictionary of rows sorted again (a
        // 114k-row mapping: Performance.md "Analyze and report"). The file's rows come in line order, where the sort is
        // one pass.
        var seen = Set<String>(minimumCapacity: rows.count)
        let first = rows.sorted { $0.line < $1.line }.filter { seen.insert($0.appAccountToken).inserted }
        try store.write { connection in
            let existing = try connection.rows(
                "SELECT line, app_account_token, account_id FROM ref_accounts ORDER BY line"
            )
            .map {
                AccountReferenceRow(
                    line: Int($0[0].integer ?? 0), appAccountToken: $0[1].text ?? "", accountId: $0[2].text ?? "")
            }
            if existing == first { return }
            try connection.execute("DELETE FROM ref_accounts")
            try StoreSettings.bumpDataVersion(connection)
            // Each token's first row, inserted in key order: the primary key grows at its end instead of taking
            // random UUIDs (a 114k-row mapping: 0.45 s → 0.2 s on SQLite). Rows go in groups of 500 per statement:
            // on PostgreSQL each statement is a round trip to the server.
            let ordered = first.sorted { $0.appAccountToken.utf8.lexicographicallyPrecedes($1.appAccountToken.utf8) }
            var start = 0
            while start < ordered.count {
                let chunk = ordered[start..<min(start + 500, ordered.count)]
                let placeholders = Array(repeating: "(?, ?, ?)", count: chunk.count).joined(separator: ", ")
                try connection.execute(
                    "INSERT INTO ref_accounts (app_account_token, account_id, line) VALUES \(placeholders)",
                    chunk.flatMap { [SQLValue.text($0.appAccountToken), .text($0.accountId), SQLValue($0.line)] })
                start += chunk.count
            }
        }
    }

    /// Replaces the stored reviews with the file's rows (nothing changes, and the data version stays, when they are
    /// the same).
    public func replaceReviews(_ rows: [AccountReviewReference]) throws {
        let ordered = rows.sorted { $0.line < $1.line }
        try store.write { connection in
            let existing = try connection.rows(
                "SELECT line, account_id, decision, reviewed_at_ms, reviewer, note FROM ref_reviews ORDER BY line"
            ).map {
                AccountReviewReference(
                    line: Int($0[0].integer ?? 0), accountId: $0[1].text ?? "", decision: $0[2].text ?? "",
                    reviewedAtMs: $0[3].integer ?? 0, reviewer: $0[4].text ?? "", note: $0[5].text ?? "")
            }
            if existing == ordered { return }
            try connection.execute("DELETE FROM ref_reviews")
            try StoreSettings.bumpDataVersion(connection)
            for row in ordered {
                try connection.execute(
                    "INSERT INTO ref_reviews (line, account_id, decision, reviewed_at_ms, reviewer, note) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        SQLValue(row.line), .text(row.accountId), .text(row.decision), .integer(row.reviewedAtMs),
                        .text(row.reviewer), .text(row.note),
                    ])
            }
        }
    }
}

/// A stored review (`ref_reviews`).
public struct AccountReviewReference: Sendable, Equatable {
    public let line: Int
    public let accountId: String
    public let decision: String
    public let reviewedAtMs: Int64
    public let reviewer: String
    public let note: String

    public init(line: Int, accountId: String, decision: String, reviewedAtMs: Int64, reviewer: String, note: String) {
        self.line = line
        self.accountId = accountId
        self.decision = decision
        self.reviewedAtMs = reviewedAtMs
        self.reviewer = reviewer
        self.note = note
    }
}
