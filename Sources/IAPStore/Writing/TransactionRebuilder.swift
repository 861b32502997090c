import GRDB

/// Recomputes merged `transactions` rows from `transaction_versions`, inside the caller's transaction.
enum TransactionRebuilder {
    /// The statement for ``insertIfNew(_:using:)``; prepare it once per batch.
    static func firstVersionStatement(_ db: Database) throws -> BoundStatement {
        try BoundStatement(db, sql: insertOrIgnoreSQL)
    }

    /// Inserts the `transactions` row of a transaction whose only version is `version`, unless the transaction
    /// already has a row. - Returns: false when it had one (the caller then rebuilds it from all its versions).
    static func insertIfNew(_ version: TransactionVersionRow, using statement: inout BoundStatement) throws -> Bool {
        guard let merged = TransactionMerger.merge([version]) else { return false }
        bind(merged, to: &statement)
        return try statement.execute() == 1
    }

    static func rebuild(transactionIds: [String], in db: Database) throws {
        let columns = TransactionColumns.names
        var select = try BoundStatement(db, sql: """
            SELECT transaction_id, document_id, source, format, document_time, version_sha256, environment,
                   \(columns.joined(separator: ", "))
            FROM transaction_versions WHERE transaction_id = ?
            """)
        var upsert = try BoundStatement(db, sql: insertOrReplaceSQL)
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
            bind(merged, to: &upsert)
            try upsert.execute()
        }
    }

    private static func bind(_ merged: MergedTransaction, to statement: inout BoundStatement) {
        statement.bind(merged.transactionId)
        statement.bind(merged.documentTime)
        statement.bind(merged.versionCount)
        statement.bind(merged.format)
        statement.bind(merged.environment)
        statement.bind(merged.fields)
    }

    private static let insertOrReplaceSQL = insertSQL(conflict: "REPLACE")
    private static let insertOrIgnoreSQL = insertSQL(conflict: "IGNORE")

    private static func insertSQL(conflict: String) -> String {
        let columns = TransactionColumns.names
        let placeholders = Array(repeating: "?", count: 5 + columns.count).joined(separator: ", ")
        return """
            INSERT OR \(conflict) INTO transactions
                (transaction_id, document_time, version_count, format, environment, \(columns.joined(separator: ", ")))
            VALUES (\(placeholders))
            """
    }
}
