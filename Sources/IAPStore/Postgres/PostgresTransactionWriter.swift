import Foundation

/// Writes the transaction versions of a PostgreSQL batch and brings each touched transaction's merged row up to
/// date, with ``TransactionMerger`` deciding exactly as on SQLite.
///
/// A transaction with no row yet has no stored version either (both are written in one transaction), so its row is
/// the merge of the versions this batch inserted; only transactions that already had a row read their stored
/// versions back, with one query for the whole batch.
enum PostgresTransactionWriter {
    private static let versionColumns =
        ["transaction_id", "document_id", "source", "format", "document_time", "version_sha256", "environment"]
        + TransactionColumns.names
    private static let transactionColumns =
        ["transaction_id", "document_time", "version_count", "format", "environment"] + TransactionColumns.names

    static func write(_ batches: [DocumentBatch], _ connection: PostgresConnection) throws {
        let versions = batches.flatMap(\.transactionVersions)
        guard !versions.isEmpty else { return }
        try connection.copy(into: "stage_transaction_versions", columns: ["ord"] + versionColumns) { rows in
            for (index, row) in versions.enumerated() {
                rows.add(Int64(index))
                rows.add(row.transactionId); rows.add(row.documentId); rows.add(row.source); rows.add(row.format)
                rows.add(row.documentTime); rows.add(row.versionSHA256); rows.add(row.environment)
                for value in TransactionColumns.values(of: row.fields) { rows.add(value) }
                rows.endRow()
            }
        }
        let list = versionColumns.joined(separator: ", ")
        let inserted = try connection.rows("""
            INSERT INTO transaction_versions (\(list))
            SELECT \(list) FROM stage_transaction_versions ORDER BY ord
            ON CONFLICT DO NOTHING
            RETURNING transaction_id, document_id
            """)
        guard !inserted.isEmpty else { return }
        var insertedKeys: Set<VersionKey> = []
        for row in inserted {
            insertedKeys.insert(VersionKey(transactionId: row[0].text ?? "", documentId: row[1].text ?? ""))
        }
        // This batch's new versions by transaction: the first copy of a key, as `on conflict do nothing` kept it.
        var newVersions: [String: [TransactionVersionRow]] = [:]
        var seen: Set<VersionKey> = []
        for version in versions {
            let key = VersionKey(transactionId: version.transactionId, documentId: version.documentId)
            guard insertedKeys.contains(key), seen.insert(key).inserted else { continue }
            newVersions[version.transactionId, default: []].append(version)
        }
        let touched = newVersions.keys.sorted()
        let existing = Set(try connection.rows(
            "SELECT transaction_id FROM transactions WHERE transaction_id = ANY(?::text[])", [.text(arrayLiteral(touched))]
        ).compactMap { $0[0].text })
        var storedVersions: [String: [TransactionVersionRow]] = [:]
        if !existing.isEmpty {
            let rows = try connection.rows(
                "SELECT \(list) FROM transaction_versions WHERE transaction_id = ANY(?::text[])",
                [.text(arrayLiteral(existing.sorted()))])
            for row in rows {
                let version = TransactionVersionRow(
                    transactionId: row[0].text ?? "", documentId: row[1].text ?? "",
                    source: try .stored(row[2].text, column: "transaction_versions.source"),
                    format: try .stored(row[3].text, column: "transaction_versions.format"), documentTime: row[4].integer ?? 0, versionSHA256: row[5].text ?? "",
                    environment: row[6].text ?? "", fields: TransactionColumns.fields(from: row.values[7...]))
                storedVersions[version.transactionId, default: []].append(version)
            }
        }
        try connection.copy(into: "stage_transactions", columns: transactionColumns) { rows in
            for transactionId in touched {
                let all = existing.contains(transactionId) ? storedVersions[transactionId] ?? [] : newVersions[transactionId] ?? []
                guard let merged = TransactionMerger.merge(all) else { continue }
                rows.add(merged.transactionId); rows.add(merged.documentTime); rows.add(merged.versionCount)
                rows.add(merged.format); rows.add(merged.environment)
                for value in TransactionColumns.values(of: merged.fields) { rows.add(value) }
                rows.endRow()
            }
        }
        let transactionList = transactionColumns.joined(separator: ", ")
        let updates = transactionColumns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        try connection.execute("""
            INSERT INTO transactions (\(transactionList)) SELECT \(transactionList) FROM stage_transactions
            ON CONFLICT (transaction_id) DO UPDATE SET \(updates)
            """)
    }

    private struct VersionKey: Hashable {
        let transactionId: String
        let documentId: String
    }

    /// A PostgreSQL text-array literal: every element double-quoted, with `\` and `"` escaped.
    static func arrayLiteral(_ values: [String]) -> String {
        "{" + values.map { value in
            "\"" + CopyTextEncoder.storable(value).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }.joined(separator: ",") + "}"
    }
}
