import GRDB

/// Recomputes merged `transactions` rows from `transaction_versions`, inside the caller's transaction.
enum TransactionRebuilder {
    static func rebuild(transactionIds: [String], in db: Database) throws {
        let columns = TransactionColumns.names
        var select = try BoundStatement(db, sql: """
            SELECT transaction_id, document_id, source, format, document_time, version_sha256, environment,
                   \(columns.joined(separator: ", "))
            FROM transaction_versions WHERE transaction_id = ?
            """)
        let placeholders = Array(repeating: "?", count: 5 + columns.count).joined(separator: ", ")
        var upsert = try BoundStatement(db, sql: """
            INSERT OR REPLACE INTO transactions
                (transaction_id, document_time, version_count, format, environment, \(columns.joined(separator: ", ")))
            VALUES (\(placeholders))
            """)
        var versions: [TransactionVersionRow] = []
        for transactionId in transactionIds {
            versions.removeAll(keepingCapacity: true)
            select.bind(transactionId)
            // Columns by position, in the SELECT's order; NOT NULL columns read as "" / 0 only if the schema broke.
            try select.forEachRow { row in
                versions.append(TransactionVersionRow(
                    transactionId: row.string(0) ?? "", documentId: row.string(1) ?? "", source: row.string(2) ?? "",
                    format: row.string(3) ?? "", documentTime: row.int64(4) ?? 0, versionSHA256: row.string(5) ?? "",
                    environment: row.string(6) ?? "", fields: row.transactionFields(from: 7)))
            }
            guard let merged = TransactionMerger.merge(versions) else { continue }
            upsert.bind(merged.transactionId)
            upsert.bind(merged.documentTime)
            upsert.bind(merged.versionCount)
            upsert.bind(merged.format)
            upsert.bind(merged.environment)
            upsert.bind(merged.fields)
            try upsert.execute()
        }
    }
}
