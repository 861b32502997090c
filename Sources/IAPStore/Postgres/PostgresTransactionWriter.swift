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
        + TransactionColumns.names + ["lineage_id", "extra_fields"]
    private static let transactionColumns =
        ["transaction_id", "document_time", "version_count", "format", "environment"] + TransactionColumns.names
        + ["lineage_id"]

    static func write(_ batches: [DocumentBatch], _ connection: PostgresConnection) throws {
        let versions = batches.flatMap(\.transactionVersions)
        guard !versions.isEmpty else { return }
        try connection.copy(into: "stage_transaction_versions", columns: ["ord"] + versionColumns) { rows in
            for (index, row) in versions.enumerated() {
                rows.add(Int64(index))
                rows.add(row.transactionId); rows.add(row.documentId); rows.add(row.source); rows.add(row.format)
                rows.add(row.documentTime); rows.add(row.versionSHA256); rows.add(row.environment)
                for value in TransactionColumns.values(of: row.fields) { rows.add(value) }
                rows.add(row.lineageId); rows.add(row.extraFields)
                rows.endRow()
            }
        }
        let list = versionColumns.joined(separator: ", ")
        let inserted = try connection.rows(
            """
            INSERT INTO transaction_versions (\(list))
            SELECT \(list) FROM stage_transaction_versions ORDER BY ord
            ON CONFLICT DO NOTHING
            RETURNING lineage_id, transaction_id, document_id
            """)
        guard !inserted.isEmpty else { return }
        var insertedKeys: Set<VersionKey> = []
        for row in inserted {
            insertedKeys.insert(
                VersionKey(
                    transaction: TransactionKey(lineageId: row[0].text ?? "", transactionId: row[1].text ?? ""),
                    documentId: row[2].text ?? ""))
        }
        // This batch's new versions by transaction: the first copy of a key, as `on conflict do nothing` kept it.
        var newVersions: [TransactionKey: [TransactionVersionRow]] = [:]
        var seen: Set<VersionKey> = []
        for version in versions {
            let key = VersionKey(transaction: TransactionKey(version), documentId: version.documentId)
            guard insertedKeys.contains(key), seen.insert(key).inserted else { continue }
            newVersions[key.transaction, default: []].append(version)
        }
        let touched = newVersions.keys.sorted()
        // The keys as two parallel arrays, unnested into (lineage, transaction) pairs: both key columns are
        // named, so each lookup is one probe of the primary key (and, on Citus, of one shard).
        let touchedKeys: [SQLValue] = [
            .text(arrayLiteral(touched.map(\.lineageId))), .text(arrayLiteral(touched.map(\.transactionId))),
        ]
        let existing = Set(
            try connection.rows(
                """
                SELECT transactions.lineage_id, transactions.transaction_id
                FROM unnest(?::text[], ?::text[]) AS keys (lineage_id, transaction_id)
                INNER JOIN transactions
                    ON transactions.lineage_id = keys.lineage_id AND transactions.transaction_id = keys.transaction_id
                """, touchedKeys
            ).map { TransactionKey(lineageId: $0[0].text ?? "", transactionId: $0[1].text ?? "") })
        var storedVersions: [TransactionKey: [TransactionVersionRow]] = [:]
        if !existing.isEmpty {
            let existingKeys = existing.sorted()
            let rows = try connection.rows(
                """
                SELECT \(versionColumns.map { "transaction_versions.\($0)" }.joined(separator: ", "))
                FROM unnest(?::text[], ?::text[]) AS keys (lineage_id, transaction_id)
                INNER JOIN transaction_versions
                    ON transaction_versions.lineage_id = keys.lineage_id
                    AND transaction_versions.transaction_id = keys.transaction_id
                """,
                [
                    .text(arrayLiteral(existingKeys.map(\.lineageId))),
                    .text(arrayLiteral(existingKeys.map(\.transactionId))),
                ])
            for row in rows {
                let version = TransactionVersionRow(
                    transactionId: row[0].text ?? "", documentId: row[1].text ?? "",
                    source: try .stored(row[2].text, column: "transaction_versions.source"),
                    format: try .stored(row[3].text, column: "transaction_versions.format"),
                    documentTime: row[4].integer ?? 0, versionSHA256: row[5].text ?? "",
                    environment: row[6].text ?? "", fields: TransactionColumns.fields(from: row.values[7...]))
                storedVersions[TransactionKey(version), default: []].append(version)
            }
        }
        try connection.copy(into: "stage_transactions", columns: transactionColumns) { rows in
            for key in touched {
                let all = existing.contains(key) ? storedVersions[key] ?? [] : newVersions[key] ?? []
                guard let merged = TransactionMerger.merge(all) else { continue }
                rows.add(merged.transactionId); rows.add(merged.documentTime); rows.add(merged.versionCount)
                rows.add(merged.format); rows.add(merged.environment)
                for value in TransactionColumns.values(of: merged.fields) { rows.add(value) }
                rows.add(merged.lineageId)
                rows.endRow()
            }
        }
        let transactionList = transactionColumns.joined(separator: ", ")
        let key: Set = ["lineage_id", "transaction_id"]
        let updates = transactionColumns.filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }
            .joined(separator: ", ")
        try connection.execute(
            """
            INSERT INTO transactions (\(transactionList)) SELECT \(transactionList) FROM stage_transactions
            ON CONFLICT (lineage_id, transaction_id) DO UPDATE SET \(updates)
            """)
    }

    private struct VersionKey: Hashable {
        let transaction: TransactionKey
        let documentId: String
    }

    /// A PostgreSQL text-array literal: every element double-quoted, with `\` and `"` escaped.
    static func arrayLiteral(_ values: [String]) -> String {
        "{"
            + values.map { value in
                "\""
                    + StoredText.storable(value).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                        of: "\"", with: "\\\"") + "\""
            }.joined(separator: ",") + "}"
    }
}
