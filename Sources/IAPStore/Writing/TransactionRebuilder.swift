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
            // Columns by position, in the SELECT's order; a cursor row is only valid until the next step.
            var versions: [TransactionVersionRow] = []
            let rows = try Row.fetchCursor(select, arguments: [transactionId])
            while let row = try rows.next() {
                versions.append(TransactionVersionRow(
                    transactionId: row[0], documentId: row[1], source: row[2], format: row[3], documentTime: row[4],
                    versionSHA256: row[5], environment: row[6], fields: TransactionColumns.fields(from: row, offset: 7)))
            }
            guard let merged = TransactionMerger.merge(versions) else { continue }
            let head: [(any DatabaseValueConvertible)?] = [
                merged.transactionId, merged.documentTime, merged.versionCount, merged.format, merged.environment,
            ]
            try upsert.execute(arguments: StatementArguments(head + TransactionColumns.values(merged.fields)))
        }
    }
}
