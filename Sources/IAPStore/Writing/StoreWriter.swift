import GRDB

/// The only writer of the raw-fact tables. Each batch is one transaction with cached prepared
/// statements; every insert is keyed, so writing the same facts twice changes nothing.
public struct StoreWriter: Sendable {
    private let store: Store

    /// Creates a writer for a store.
    public init(store: Store) {
        self.store = store
    }

    /// Registers a file about to be read (state `reading`), unless it is already known.
    /// - Returns: true when the file was already read completely and must be skipped.
    public func beginFile(sha256: String, path: String, byteCount: Int64, runId: Int64) throws -> Bool {
        try store.database.write { db in
            if let state = try String.fetchOne(db, sql: "SELECT state FROM source_files WHERE file_sha256 = ?", arguments: [sha256]) {
                return state == "complete"
            }
            try db.execute(
                sql: """
                    INSERT INTO source_files (file_sha256, path, byte_count, state, first_run_id)
                    VALUES (?, ?, ?, 'reading', ?)
                    """,
                arguments: [sha256, path, byteCount, runId])
            return false
        }
    }

    /// Content hashes of every file already read completely: ingest skips these.
    public func completedFileHashes() throws -> Set<String> {
        try store.database.read { db in
            Set(try String.fetchAll(db, sql: "SELECT file_sha256 FROM source_files WHERE state = 'complete'"))
        }
    }

    /// Connection settings for a bulk load, set once before the first batch; they change neither what is stored
    /// nor durability (WAL, synchronous NORMAL): a page cache that holds a whole batch's dirty pages, so SQLite
    /// does not spill pages to the WAL in the middle of a transaction and write them again at commit, nor
    /// re-read index pages it has just evicted.
    public func prepareForBulkLoad(cacheMegabytes: Int = 16) throws {
        try store.database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA cache_size = -\(cacheMegabytes * 1024)")
        }
    }

    /// Writes one batch in one transaction.
    public func write(_ batch: DocumentBatch) throws {
        try store.database.write { db in
            try Self.insert(batch, into: db)
        }
    }

    static func insert(_ batch: DocumentBatch, into db: Database) throws {
        // A file half-read by a killed run keeps its row (and its first run).
        let started = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO source_files (file_sha256, path, byte_count, state, first_run_id)
            VALUES (?, ?, ?, 'reading', ?)
            """)
        for file in batch.startedFiles {
            try started.execute(arguments: [file.fileSHA256, file.path, file.byteCount, file.runId])
        }
        let document = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO documents
                (file_sha256, line, entry, kind, outcome, document_id, environment, document_time, is_verified)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in batch.documents {
            try document.execute(arguments: [
                row.position.fileSHA256, row.position.line, row.position.entry, row.kind, row.outcome.rawValue,
                row.documentId, row.environment, row.documentTime, row.isVerified,
            ])
        }
        let quarantine = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO quarantine (file_sha256, line, entry, path, reason, message, excerpt)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for row in batch.quarantine {
            try quarantine.execute(arguments: [
                row.position.fileSHA256, row.position.line, row.position.entry, row.path, row.reason, row.message,
                row.excerpt,
            ])
        }
        try insertNotifications(batch.notifications, into: db)
        try insertRenewalInfos(batch.renewalInfos, into: db)
        try insertOrderLookups(batch.orderLookups, into: db)
        try insertTransactionVersions(batch.transactionVersions, into: db)
        let complete = try db.cachedStatement(sql: """
            UPDATE source_files SET state = 'complete', documents = ?, completed_run_id = ? WHERE file_sha256 = ?
            """)
        for file in batch.completedFiles {
            try complete.execute(arguments: [file.documents, file.runId, file.fileSHA256])
        }
        try StoreSettings.bumpDataVersion(db)
    }

    private static func insertNotifications(_ rows: [NotificationRow], into db: Database) throws {
        // Apple's retries carry the same UUID and the same content; if two different bodies ever share a
        // UUID, the one with the smaller hash wins so the outcome does not depend on reading order.
        let statement = try db.cachedStatement(sql: """
            INSERT INTO notifications
                (notification_id, format, notification_type, subtype, environment, bundle_id, app_apple_id, version,
                 signed_date, received_at, document_time, transaction_id, original_transaction_id, product_id, status,
                 consumption_request_reason, raw_sha256)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (notification_id) DO UPDATE SET
                format = excluded.format, notification_type = excluded.notification_type, subtype = excluded.subtype,
                environment = excluded.environment, bundle_id = excluded.bundle_id,
                app_apple_id = excluded.app_apple_id, version = excluded.version, signed_date = excluded.signed_date,
                received_at = excluded.received_at, document_time = excluded.document_time,
                transaction_id = excluded.transaction_id, original_transaction_id = excluded.original_transaction_id,
                product_id = excluded.product_id, status = excluded.status,
                consumption_request_reason = excluded.consumption_request_reason, raw_sha256 = excluded.raw_sha256
            WHERE excluded.raw_sha256 < notifications.raw_sha256
                OR (excluded.raw_sha256 = notifications.raw_sha256
                    AND coalesce(excluded.received_at, 9223372036854775807)
                        < coalesce(notifications.received_at, 9223372036854775807))
            """)
        for row in rows {
            try statement.execute(arguments: [
                row.notificationId, row.format, row.notificationType, row.subtype, row.environment, row.bundleId,
                row.appAppleId, row.version, row.signedDate, row.receivedAt, row.documentTime, row.transactionId,
                row.originalTransactionId, row.productId, row.status, row.consumptionRequestReason, row.rawSHA256,
            ])
        }
    }

    private static func insertRenewalInfos(_ rows: [RenewalInfoRow], into db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO renewal_infos
                (document_id, original_transaction_id, format, document_time, environment, product_id,
                 auto_renew_product_id, auto_renew_status, expiration_intent, is_in_billing_retry_period,
                 grace_period_expires_date, price_increase_status, renewal_date, signed_date, app_account_token)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in rows {
            try statement.execute(arguments: [
                row.documentId, row.originalTransactionId, row.format, row.documentTime, row.environment, row.productId,
                row.autoRenewProductId, row.autoRenewStatus, row.expirationIntent, row.isInBillingRetryPeriod,
                row.gracePeriodExpiresDate, row.priceIncreaseStatus, row.renewalDate, row.signedDate,
                row.appAccountToken,
            ])
        }
    }

    private static func insertOrderLookups(_ rows: [OrderLookupRow], into db: Database) throws {
        // The same order looked up twice: the newest lookup (then the higher status) describes it.
        let lookup = try db.cachedStatement(sql: """
            INSERT INTO order_lookups (lookup_id, order_id, status, environment, document_time, received_at, note)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (lookup_id) DO UPDATE SET
                status = excluded.status, environment = excluded.environment,
                document_time = excluded.document_time, received_at = excluded.received_at, note = excluded.note
            WHERE (coalesce(excluded.document_time, -1), excluded.status)
                > (coalesce(order_lookups.document_time, -1), order_lookups.status)
            """)
        let link = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO order_lookup_transactions (lookup_id, transaction_id) VALUES (?, ?)
            """)
        for row in rows {
            try lookup.execute(arguments: [
                row.lookupId, row.orderId, row.status, row.environment, row.documentTime, row.receivedAt, row.note,
            ])
            for transactionId in row.transactionIds {
                try link.execute(arguments: [row.lookupId, transactionId])
            }
        }
    }

    private static func insertTransactionVersions(_ rows: [TransactionVersionRow], into db: Database) throws {
        guard !rows.isEmpty else { return }
        let columns = TransactionColumns.names
        let placeholders = Array(repeating: "?", count: 7 + columns.count).joined(separator: ", ")
        let statement = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO transaction_versions
                (transaction_id, document_id, source, format, document_time, version_sha256, environment,
                 \(columns.joined(separator: ", ")))
            VALUES (\(placeholders))
            """)
        var touched: Set<String> = []
        for row in rows {
            let head: [(any DatabaseValueConvertible)?] = [
                row.transactionId, row.documentId, row.source, row.format, row.documentTime, row.versionSHA256,
                row.environment,
            ]
            try statement.execute(arguments: StatementArguments(head + TransactionColumns.values(row.fields)))
            touched.insert(row.transactionId)
        }
        try TransactionRebuilder.rebuild(transactionIds: touched.sorted(), in: db)
    }
}
