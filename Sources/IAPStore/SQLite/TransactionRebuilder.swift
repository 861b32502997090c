import GRDB

/// Recomputes merged `transactions` rows from `transaction_versions`, inside the caller's transaction.
enum TransactionRebuilder {
    /// The statement for ``insertIfNew(_:using:)``; prepare it once per batch.
    static func firstVersionStatement(_ db: Database) throws -> BoundStatement {
        try BoundStatement(db, sql: insertOrIgnoreSQL)
    }

    /// Inserts the `transactions` row of a transaction whose only versions are `versions`, unless the transaction
    /// already has a row. - Returns: false when it had one (the caller then folds the versions into it, or rebuilds
    /// it from all its versions).
    static func insertIfNew(_ versions: [TransactionVersionRow], using statement: inout BoundStatement) throws -> Bool {
        guard let merged = TransactionMerger.merge(versions) else { return false }
        bind(merged, to: &statement)
        return try statement.execute() == 1
    }

    /// ``insertIfNew(_:using:)`` for a transaction whose only version is `version` (most of a bulk load). Merging one
    /// version yields that version's own fields (``TransactionMerger``), so the row is bound from the version itself:
    /// no array around it and no merged copy of its strings. `lineageId` is the version's ``Lineage``.
    static func insertIfNew(
        only version: borrowing TransactionVersionRow, lineageId: String, using statement: inout BoundStatement
    ) throws -> Bool {
        statement.bind(version.transactionId)
        statement.bind(version.documentTime)
        statement.bind(Int64(1))
        statement.bind(version.format)
        statement.bind(version.environment)
        statement.bind(version.fields)
        statement.bind(lineageId)
        return try statement.execute() == 1
    }

    /// The statement for ``mergeIfNewest(_:using:)``; prepare it once per batch.
    static func newestVersionStatement(_ db: Database) throws -> BoundStatement {
        try BoundStatement(db, sql: mergeNewestSQL)
    }

    /// Folds `version` into its transaction's row when it is newer than every version already merged there,
    /// without reading those versions back: the merge of versions in time order is the merge of the older ones
    /// with the newest laid over it (each field it carries overwrites, its revocation group replaces), so the
    /// stored row is all that is needed. A version as old as the row's, or older, changes the order and the tie
    /// rule (version hash), so it is left to ``rebuild(transactionIds:in:)``.
    /// Renewals and refunds arrive after the purchase they concern: at 1M documents a quarter of all versions
    /// took this path instead of reading every earlier version of their transaction from disk.
    /// - Returns: false when the transaction has no row, or its row is as new as `version` or newer.
    static func mergeIfNewest(_ version: TransactionVersionRow, using statement: inout BoundStatement) throws -> Bool {
        try mergeIfNewest(version, lineageId: version.lineageId, using: &statement)
    }

    /// ``mergeIfNewest(_:using:)`` with the version's ``Lineage`` already known.
    static func mergeIfNewest(
        _ version: borrowing TransactionVersionRow, lineageId: String, using statement: inout BoundStatement
    ) throws -> Bool {
        statement.bind(version.documentTime)
        statement.bind(version.format)
        statement.bind(version.environment)
        statement.bind(version.fields)
        statement.bind(lineageId)
        statement.bind(version.transactionId)
        statement.bind(version.documentTime)
        return try statement.execute() == 1
    }

    static func rebuild(_ keys: [TransactionKey], in db: Database) throws {
        let columns = TransactionColumns.names
        var select = try BoundStatement(
            db,
            sql: """
                SELECT transaction_id, document_id, source, format, document_time, version_sha256, environment,
                       \(columns.joined(separator: ", "))
                FROM transaction_versions WHERE lineage_id = ? AND transaction_id = ?
                """)
        var upsert = try BoundStatement(db, sql: insertOrReplaceSQL)
        var versions: [TransactionVersionRow] = []
        for key in keys {
            versions.removeAll(keepingCapacity: true)
            select.bind(key.lineageId)
            select.bind(key.transactionId)
            // Columns by position, in the SELECT's order; NOT NULL columns read as "" / 0 only if the schema broke.
            try select.forEachRow { row in
                versions.append(
                    TransactionVersionRow(
                        transactionId: row.string(0) ?? "", documentId: row.string(1) ?? "",
                        source: try .stored(row.string(2), column: "transaction_versions.source"),
                        format: try .stored(row.string(3), column: "transaction_versions.format"),
                        documentTime: row.int64(4) ?? 0, versionSHA256: row.string(5) ?? "",
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
        statement.bind(merged.lineageId)
    }

    /// The revocation fields travel as a group from the newest version (``TransactionMerger``); every other field
    /// keeps its stored value when the newer version does not carry it.
    private static let mergeNewestSQL: String = {
        let group: Set<String> = ["revocation_date", "revocation_reason", "revocation_type", "revocation_percentage"]
        let assignments = TransactionColumns.names.map {
            group.contains($0) ? "\($0) = ?" : "\($0) = coalesce(?, \($0))"
        }
        return """
            UPDATE transactions
            SET document_time = ?, version_count = version_count + 1, format = ?, environment = ?,
                \(assignments.joined(separator: ", "))
            WHERE lineage_id = ? AND transaction_id = ? AND document_time < ?
            """
    }()

    private static let insertOrReplaceSQL = insertSQL(conflict: "REPLACE")
    private static let insertOrIgnoreSQL = insertSQL(conflict: "IGNORE")

    private static func insertSQL(conflict: String) -> String {
        let columns = TransactionColumns.names
        let placeholders = Array(repeating: "?", count: 6 + columns.count).joined(separator: ", ")
        return """
            INSERT OR \(conflict) INTO transactions
                (transaction_id, document_time, version_count, format, environment, \(columns.joined(separator: ", ")),
                 lineage_id)
            VALUES (\(placeholders))
            """
    }
}
