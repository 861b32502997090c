import GRDB

/// Recomputes merged `transactions` rows from `transaction_versions`, inside the caller's transaction.
enum TransactionRebuilder {
    static func rebuild(transactionIds: [String], in db: Database) throws {
        let select = try db.cachedStatement(sql: """
            SELECT transaction_id, document_id, source, format, document_time, version_sha256, environment,
                   \(TransactionColumns.names.joined(separator: ", "))
            FROM transaction_versions WHERE transaction_id = ?
            """)
        let columns = TransactionColumns.names
        let placeholders = Array(repeating: "?", count: 5 + columns.count).joined(separator: ", ")
        let upsert = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO transactions
                (transaction_id, document_time, version_count, format, environment, \(columns.joined(separator: ", ")))
            VALUES (\(placeholders))
            """)
        for transactionId in transactionIds {
            let versions = try Row.fetchAll(select, arguments: [transactionId]).map { row in
                TransactionVersionRow(
                    transactionId: row["transaction_id"], documentId: row["document_id"], source: row["source"],
                    format: row["format"], documentTime: row["document_time"], versionSHA256: row["version_sha256"],
                    environment: row["environment"], fields: TransactionColumns.fields(from: row))
            }
            guard let merged = TransactionMerger.merge(versions) else { continue }
            let head: [(any DatabaseValueConvertible)?] = [
                merged.transactionId, merged.documentTime, merged.versionCount, merged.format, merged.environment,
            ]
            try upsert.execute(arguments: StatementArguments(head + TransactionColumns.values(merged.fields)))
        }
    }
}
