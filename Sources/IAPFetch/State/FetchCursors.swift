import Foundation
import IAPStore

/// Where `fetch` stands with each endpoint, in the store (`fetch_cursors`): one text value per name. Each is
/// written only after the page it describes is safely in the archive, so a fetch killed at any point resumes with
/// nothing skipped.
struct FetchCursors: Sendable {
    let store: any StoreEngine

    func value(_ name: String) throws -> String? {
        try store.read { try $0.text("SELECT value FROM fetch_cursors WHERE name = ?", [.text(name)]) }
    }

    func set(_ name: String, _ value: String?) throws {
        _ = try store.write { connection in
            if let value {
                try connection.execute(
                    "INSERT INTO fetch_cursors (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                    [.text(name), .text(value)])
            } else {
                try connection.execute("DELETE FROM fetch_cursors WHERE name = ?", [.text(name)])
            }
        }
    }

    /// From the first purchase to the newest accepted document of the store (Unix ms), nil for an empty store: the
    /// span the reports cover, which decides the financial reports to fetch.
    func activitySpan() throws -> ClosedRange<Int64>? {
        try store.read { connection in
            guard let first = try connection.integer("SELECT min(purchase_date) FROM transactions"),
                let last = try connection.integer("SELECT max(document_time) FROM documents WHERE outcome = 'accepted'")
            else { return nil }
            return min(first, last)...max(first, last)
        }
    }

    /// Every customer the store knows in `environment` and the app `bundleId`, from a verified document, as one
    /// transaction ID each (a purchase lineage's own ID), sorted; not those Apple said it does not know. Apple
    /// answers "unknown" for another environment's or another app's transactions, and an unverified document's
    /// may be anybody's.
    func knownCustomers(environment: String, bundleId: String) throws -> [String] {
        try store.read { connection in
            try connection.rows(
                """
                SELECT DISTINCT t.lineage_id FROM transactions t
                WHERE t.environment = ? AND (t.bundle_id = ? OR t.bundle_id IS NULL)
                    AND EXISTS (
                        SELECT 1 FROM transaction_versions v
                        JOIN documents d ON d.document_id = v.document_id
                        WHERE v.lineage_id = t.lineage_id AND v.transaction_id = t.transaction_id AND d.outcome = 'accepted' AND d.is_verified = 1)
                    AND NOT EXISTS (SELECT 1 FROM fetch_cursors c WHERE c.name = 'refund_history_unknown.' || t.lineage_id)
                ORDER BY t.lineage_id
                """, [.text(environment), .text(bundleId)]
            ).compactMap { $0[0].text }
        }
    }

    /// How many customers Apple said it does not know (refund history 404, 4040010), for `status`.
    func unknownCustomerCount() throws -> Int {
        try store.read { connection in
            Int(
                try connection.integer("SELECT count(*) FROM fetch_cursors WHERE name LIKE 'refund_history_unknown.%'")
                    ?? 0)
        }
    }
}
