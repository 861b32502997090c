import GRDB

/// Ingest's writer on SQLite: the only writer of the raw-fact tables. Each batch is one transaction with cached
/// prepared statements; every insert is keyed, so writing the same facts twice changes nothing.
public struct SQLiteDocumentWriter: DocumentWriter {
    private let store: SQLiteStore
    /// The keys written while a bulk load has dropped the unique indexes; shared by the copies of this writer
    /// (the ingest thread's and the writer thread's).
    let bulkKeys = BulkLoadKeys()

    /// Creates a writer for a store.
    public init(store: SQLiteStore) {
        self.store = store
    }

    /// Sets the bulk-load connection settings, and drops the secondary indexes when the files outweigh the store.
    public func beginIngest(files: [(path: String, byteCount: Int64)]) throws -> Bool {
        try prepareForBulkLoad()
        let isBulk = try isBulkLoad(files: files)
        if isBulk { try dropSecondaryIndexes() }
        return isBulk
    }

    /// Builds the indexes a bulk load dropped.
    public func finishIngest() throws {
        try ensureSecondaryIndexes()
    }

    /// Every registered file, for ``FileContinuation``.
    public func fileRegistrations() throws -> [FileRegistration] {
        try store.database.read { db in try FileContinuation.registrations(on: SQLiteStoreConnection(db)) }
    }

    /// True for a bulk load (``BulkLoadRule``), for which ingest rebuilds the secondary indexes once at the end
    /// instead of maintaining them row by row (``SecondaryIndexes``).
    public func isBulkLoad(files: [(path: String, byteCount: Int64)]) throws -> Bool {
        try store.database.read { db in
            let completed = try Row.fetchAll(db, sql: BulkLoadRule.completedFilesSQL).map {
                ($0[0] as String, $0[1] as Int64)
            }
            let storeBytes =
                try Int64.fetchOne(
                    db, sql: "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()") ?? 0
            return BulkLoadRule.isBulk(files: files, completed: completed, storeBytes: storeBytes)
        }
    }

    /// Drops the secondary indexes before a bulk load.
    public func dropSecondaryIndexes() throws {
        try store.database.write { db in
            try SecondaryIndexes.drop(db)
            try bulkKeys.start(existingKeysIn: db)
        }
    }

    /// Builds any missing secondary index (after a bulk load, or after a run killed during one).
    /// - Returns: true when one was missing.
    @discardableResult
    public func ensureSecondaryIndexes() throws -> Bool {
        if try store.database.read({ db in try SecondaryIndexes.missing(db) }).isEmpty { return false }
        let suspects = bulkKeys.currentSuspects()
        defer { bulkKeys.stop() }
        return try store.database.write { db in try SecondaryIndexes.ensure(db, suspects: suspects) }
    }

    /// Connection settings for a bulk load, set once before the first batch; they change neither what is stored
    /// nor durability (WAL, synchronous NORMAL):
    /// - a 32 MB page cache: it holds a whole batch's dirty pages, so SQLite does not spill pages to the WAL in
    ///   the middle of a transaction and write them again at commit; 16 and 64 MB were both slower at 1M, and 64 MB
    ///   cost 35 MB more memory (Documentation/Performance.md, "SQLite's bulk-load settings");
    /// - a checkpoint every 64 MB of WAL instead of every 4 MB: a checkpoint copies each page once however many
    ///   commits rewrote it, and fsyncs, so rarer checkpoints write and sync far less. The WAL file may grow to that
    ///   size while ingest runs.
    public func prepareForBulkLoad(cacheMegabytes: Int = 32, checkpointPages: Int = 16_384) throws {
        try store.database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA cache_size = -\(cacheMegabytes * 1024)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(checkpointPages)")
        }
    }

    /// Writes several batches in one transaction, exactly as if they had been appended into one: each table's
    /// rows in order, batch after batch. Ingest hands over one small batch per document this way, so no row is
    /// copied into a merged batch first.
    public func write(_ batches: [DocumentBatch]) throws {
        try store.database.write { db in
            try Self.insert(batches, into: db)
        }
        bulkKeys.note(batches)
    }

    static func insert(_ batches: [DocumentBatch], into db: Database) throws {
        // A file half-read by a killed run keeps its row (and its first run).
        try execute(
            """
            INSERT OR IGNORE INTO source_files (file_sha256, path, byte_count, state, first_run_id)
            VALUES (?, ?, ?, 'reading', ?)
            """, forEach: { $0.startedFiles }, of: batches, in: db
        ) { file, statement in
            statement.bind(file.fileSHA256)
            statement.bind(file.path)
            statement.bind(file.byteCount)
            statement.bind(file.runId)
        }
        for file in batches.lazy.flatMap(\.startedFiles) {
            if let old = file.continues {
                try FileContinuation.continueFile(old, as: file.fileSHA256, on: SQLiteStoreConnection(db))
            }
        }
        try execute(
            """
            INSERT OR IGNORE INTO documents
                (file_sha256, line, entry, kind, outcome, document_id, environment, document_time, is_verified)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, forEach: { $0.documents }, of: batches, in: db
        ) { row, statement in
            statement.bind(row.position.fileSHA256)
            statement.bind(row.position.line)
            statement.bind(row.position.entry)
            statement.bind(row.kind)
            statement.bind(row.outcome.rawValue)
            statement.bind(row.documentId)
            statement.bind(row.environment)
            statement.bind(row.documentTime)
            statement.bind(row.isVerified)
        }
        try execute(
            """
            INSERT OR IGNORE INTO quarantine (file_sha256, line, entry, path, reason, message, excerpt)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, forEach: { $0.quarantine }, of: batches, in: db
        ) { row, statement in
            statement.bind(row.position.fileSHA256)
            statement.bind(row.position.line)
            statement.bind(row.position.entry)
            statement.bind(row.path)
            statement.bind(row.reason)
            statement.bind(row.message)
            statement.bind(row.excerpt)
        }
        try insertNotifications(batches, into: db)
        try insertRenewalInfos(batches, into: db)
        try insertOrderLookups(batches, into: db)
        try insertTransactionVersions(batches, into: db)
        try execute(
            "UPDATE source_files SET state = 'complete', documents = ?, completed_run_id = ? WHERE file_sha256 = ?",
            forEach: { $0.completedFiles }, of: batches, in: db
        ) { file, statement in
            statement.bind(file.documents)
            statement.bind(file.runId)
            statement.bind(file.fileSHA256)
        }
        for file in batches.lazy.flatMap(\.forgottenFiles) {
            try FileContinuation.forget(file, on: SQLiteStoreConnection(db))
        }
        try StoreSettings.bumpDataVersion(SQLiteStoreConnection(db))
    }

    /// Runs `sql` once for every row at `rows` of every batch, in order, binding each row with `bind`: the batches
    /// are written as if they had been appended into one.
    ///
    /// Batches and rows are reached by index, not by `for … in`: ingest hands over one batch per document, and
    /// iterating copies each batch (nine arrays) and each row (up to forty strings), a retain and a release per
    /// field, for every table. Inlined so that each call site works on its concrete row type.
    @inline(__always)
    private static func execute<Row>(
        _ sql: String, forEach rows: (DocumentBatch) -> [Row], of batches: [DocumentBatch], in db: Database,
        bind: (borrowing Row, inout BoundStatement) -> Void
    ) throws {
        var statement = try BoundStatement(db, sql: sql)
        for batchIndex in batches.indices {
            let list = rows(batches[batchIndex])
            for index in list.indices {
                bind(list[index], &statement)
                try statement.execute()
            }
        }
    }

    private static func insertNotifications(_ batches: [DocumentBatch], into db: Database) throws {
        // Apple's retries carry the same UUID and the same content; if two different bodies ever share a
        // UUID, the one with the smaller hash wins so the outcome does not depend on reading order. During a
        // bulk load the unique key is dropped: every copy is inserted, and the same winner is kept when the key
        // is built again (``SecondaryIndexes``).
        let isKeyed = try SecondaryIndexes.isNotificationKeyPresent(db)
        try execute(
            isKeyed ? notificationUpsertSQL : notificationInsertSQL, forEach: { $0.notifications }, of: batches, in: db
        ) { row, statement in
            statement.bind(row.notificationId)
            statement.bind(row.format)
            statement.bind(row.notificationType)
            statement.bind(row.subtype)
            statement.bind(row.environment)
            statement.bind(row.bundleId)
            statement.bind(row.appAppleId)
            statement.bind(row.version)
            statement.bind(row.signedDate)
            statement.bind(row.receivedAt)
            statement.bind(row.documentTime)
            statement.bind(row.transactionId)
            statement.bind(row.originalTransactionId)
            statement.bind(row.productId)
            statement.bind(row.status)
            statement.bind(row.consumptionRequestReason)
            statement.bind(row.rawSHA256)
            statement.bind(row.lineageId)
            statement.bind(row.extraFields)
            statement.bind(row.isVerified)
        }
    }

    private static let notificationColumns = """
        (notification_id, format, notification_type, subtype, environment, bundle_id, app_apple_id, version,
         signed_date, received_at, document_time, transaction_id, original_transaction_id, product_id, status,
         consumption_request_reason, raw_sha256, lineage_id, extra_fields, is_verified)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    private static let notificationInsertSQL = "INSERT INTO notifications \(notificationColumns)"

    private static let notificationUpsertSQL = """
        INSERT INTO notifications \(notificationColumns)
        ON CONFLICT (lineage_id, notification_id) DO UPDATE SET
            format = excluded.format, notification_type = excluded.notification_type, subtype = excluded.subtype,
            environment = excluded.environment, bundle_id = excluded.bundle_id,
            app_apple_id = excluded.app_apple_id, version = excluded.version, signed_date = excluded.signed_date,
            received_at = excluded.received_at, document_time = excluded.document_time,
            transaction_id = excluded.transaction_id, original_transaction_id = excluded.original_transaction_id,
            product_id = excluded.product_id, status = excluded.status,
            consumption_request_reason = excluded.consumption_request_reason, raw_sha256 = excluded.raw_sha256,
            extra_fields = excluded.extra_fields, is_verified = excluded.is_verified
        WHERE excluded.is_verified > notifications.is_verified
            OR (excluded.is_verified = notifications.is_verified
                AND (excluded.raw_sha256 < notifications.raw_sha256
                    OR (excluded.raw_sha256 = notifications.raw_sha256
                        AND coalesce(excluded.received_at, 9223372036854775807)
                            < coalesce(notifications.received_at, 9223372036854775807))))
        """

    private static func insertRenewalInfos(_ batches: [DocumentBatch], into db: Database) throws {
        try execute(
            """
            INSERT OR IGNORE INTO renewal_infos
                (document_id, original_transaction_id, format, document_time, environment, product_id,
                 auto_renew_product_id, auto_renew_status, expiration_intent, is_in_billing_retry_period,
                 grace_period_expires_date, price_increase_status, renewal_date, signed_date, app_account_token,
                 extra_fields)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, forEach: { $0.renewalInfos }, of: batches, in: db
        ) { row, statement in
            statement.bind(row.documentId)
            statement.bind(row.originalTransactionId)
            statement.bind(row.format)
            statement.bind(row.documentTime)
            statement.bind(row.environment)
            statement.bind(row.productId)
            statement.bind(row.autoRenewProductId)
            statement.bind(row.autoRenewStatus)
            statement.bind(row.expirationIntent)
            statement.bind(row.isInBillingRetryPeriod)
            statement.bind(row.gracePeriodExpiresDate)
            statement.bind(row.priceIncreaseStatus)
            statement.bind(row.renewalDate)
            statement.bind(row.signedDate)
            statement.bind(row.appAccountToken)
            statement.bind(row.extraFields)
        }
    }

    private static func insertOrderLookups(_ batches: [DocumentBatch], into db: Database) throws {
        // The same order looked up twice: the newest lookup (then the higher status) describes it.
        var lookup = try BoundStatement(
            db,
            sql: """
                INSERT INTO order_lookups (lookup_id, order_id, status, environment, document_time, received_at, note)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (lookup_id) DO UPDATE SET
                    status = excluded.status, environment = excluded.environment,
                    document_time = excluded.document_time, received_at = excluded.received_at, note = excluded.note
                WHERE (coalesce(excluded.document_time, -1), excluded.status)
                    > (coalesce(order_lookups.document_time, -1), order_lookups.status)
                """)
        var link = try BoundStatement(
            db,
            sql: """
                INSERT OR IGNORE INTO order_lookup_transactions (lookup_id, transaction_id) VALUES (?, ?)
                """)
        for batch in batches {
            for row in batch.orderLookups {
                lookup.bind(row.lookupId)
                lookup.bind(row.orderId)
                lookup.bind(row.status)
                lookup.bind(row.environment)
                lookup.bind(row.documentTime)
                lookup.bind(row.receivedAt)
                lookup.bind(row.note)
                try lookup.execute()
                for transactionId in row.transactionIds {
                    link.bind(row.lookupId)
                    link.bind(transactionId)
                    try link.execute()
                }
            }
        }
    }

    private static func insertTransactionVersions(_ batches: [DocumentBatch], into db: Database) throws {
        // How many of this write's versions each transaction has, counted by the ``KeyDigest`` of its key. Two keys
        // that share a digest both count as transactions with several versions, which only sends them down the general
        // path, right for any number of versions. Each version's lineage and digest are kept for the loop below, in the
        // same order.
        var lineages: [(lineageId: String, digest: UInt64)] = []
        var versionsInWrite: [UInt64: Int] = [:]
        for batchIndex in batches.indices {
            let rows = batches[batchIndex].transactionVersions
            for index in rows.indices {
                let lineageId = rows[index].lineageId
                let digest = KeyDigest.of(lineageId, rows[index].transactionId)
                lineages.append((lineageId, digest))
                versionsInWrite[digest, default: 0] += 1
            }
        }
        guard !lineages.isEmpty else { return }
        let columns = TransactionColumns.names
        let placeholders = Array(repeating: "?", count: 9 + columns.count).joined(separator: ", ")
        var statement = try BoundStatement(
            db,
            sql: """
                INSERT OR IGNORE INTO transaction_versions
                    (transaction_id, document_id, source, format, document_time, version_sha256, environment,
                     \(columns.joined(separator: ", ")), lineage_id, extra_fields)
                VALUES (\(placeholders))
                """)
        var firstVersion = try TransactionRebuilder.firstVersionStatement(db)
        var newestVersion = try TransactionRebuilder.newestVersionStatement(db)
        var rebuild: Set<TransactionKey> = []
        // The versions this write inserted for transactions it carries more than once (Apple's retries, a refund
        // and the refund history entry for it), merged after the loop.
        var several: [TransactionKey: [TransactionVersionRow]] = [:]
        var position = 0
        for batchIndex in batches.indices {
            let rows = batches[batchIndex].transactionVersions
            // Rows are bound where they lie (`rows[index]`): a copy of a row is a retain and a release of each of
            // its strings.
            for index in rows.indices {
                let (lineageId, digest) = lineages[position]
                position += 1
                statement.bind(rows[index].transactionId)
                statement.bind(rows[index].documentId)
                statement.bind(rows[index].source)
                statement.bind(rows[index].format)
                statement.bind(rows[index].documentTime)
                statement.bind(rows[index].versionSHA256)
                statement.bind(rows[index].environment)
                statement.bind(rows[index].fields)
                statement.bind(lineageId)
                statement.bind(rows[index].extraFields)
                let inserted = try statement.execute() == 1
                // A version already stored is already merged into its transaction. A transaction seen for the first
                // time with one version (most of a bulk load) is that version; one newer than all its stored versions
                // (a renewal's or refund's later snapshot) is laid over its row; only the rest are merged from storage.
                if versionsInWrite[digest] == 1 {
                    if !inserted { continue }
                    if try TransactionRebuilder.insertIfNew(
                        only: rows[index], lineageId: lineageId, using: &firstVersion)
                    {
                        continue
                    }
                    if try TransactionRebuilder.mergeIfNewest(rows[index], lineageId: lineageId, using: &newestVersion)
                    {
                        continue
                    }
                    rebuild.insert(TransactionKey(lineageId: lineageId, transactionId: rows[index].transactionId))
                } else if inserted {
                    several[TransactionKey(lineageId: lineageId, transactionId: rows[index].transactionId), default: []]
                        .append(rows[index])
                }
            }
        }
        // The same three cases for a transaction with several new versions: all of it (no stored row yet), laid
        // over its row oldest first (each strictly newer than the row), or merged from storage. Sorted, so the
        // rows are written in the same order whatever the dictionary's.
        for key in several.keys.sorted() {
            let versions = several[key] ?? []
            if try TransactionRebuilder.insertIfNew(versions, using: &firstVersion) { continue }
            for version in TransactionMerger.ordered(versions) {
                if try TransactionRebuilder.mergeIfNewest(version, using: &newestVersion) { continue }
                rebuild.insert(key)
                break
            }
        }
        try TransactionRebuilder.rebuild(rebuild.sorted(), in: db)
    }
}
