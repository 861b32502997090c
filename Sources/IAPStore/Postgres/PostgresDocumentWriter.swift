/// Ingest's writer on PostgreSQL: each call is one transaction that streams every table's rows of the batches
/// into session-temporary staging tables with COPY, then moves them into the store with one keyed
/// `insert … select … on conflict` per table. A batch thus costs about twenty round trips however many rows it
/// holds, and keeps SQLite's guarantees row for row:
/// - every key is written once whatever the order or the number of runs (`on conflict do nothing` where SQLite
///   writes `INSERT OR IGNORE`, taking rows in batch order so the first copy wins as it does there);
/// - where SQLite's upsert lets a later copy replace an earlier one (a notification's smallest raw hash, an order
///   lookup's newest state), the batch's best copy is picked first (`distinct on`, ties by batch order) and then
///   meets the stored row under the same rule;
/// - a transaction's merged row is rebuilt from its versions by ``TransactionMerger``, the same code as SQLite's.
struct PostgresDocumentWriter: DocumentWriter {
    let store: PostgresStore

    func fileRegistrations() throws -> [FileRegistration] {
        try store.read { connection in try FileContinuation.registrations(on: connection) }
    }

    /// For a bulk load (``BulkLoadRule``), drops the secondary indexes
    /// (``PostgresSchema/secondaryIndexes``); ``finishIngest()`` builds them again, sorted, in one pass each. The
    /// unique keys every write relies on stay in place. A run killed in between leaves them missing; the next
    /// command that opens the store builds them first (``PostgresStore/finishInterruptedWork()``).
    func beginIngest(files: [(path: String, byteCount: Int64)]) throws -> Bool {
        try store.write { connection in
            let completed = try connection.rows(BulkLoadRule.completedFilesSQL).map {
                ($0[0].text ?? "", $0[1].integer ?? 0)
            }
            let storeBytes =
                try connection.integer(
                    """
                    SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class AS c
                    INNER JOIN pg_namespace AS n ON n.oid = c.relnamespace
                    WHERE n.nspname = current_schema() AND c.relkind = 'r'
                    """) ?? 0
            guard BulkLoadRule.isBulk(files: files, completed: completed, storeBytes: storeBytes) else { return false }
            for index in PostgresSchema.secondaryIndexes {
                try connection.executeScript("DROP INDEX IF EXISTS \(index.name)")
            }
            return true
        }
    }

    /// Builds the dropped indexes, then gathers the planner statistics of the tables the load moved
    /// (``PostgresPlannerStatistics``), as PostgreSQL advises after a bulk load: the server's autovacuum samples a
    /// table only some time after it grew, and the next `analyze` would otherwise gather them itself (about 2 s
    /// of its time at 1M documents), and any query planned before autovacuum ran would be planned without them.
    func finishIngest() throws {
        try store.finishInterruptedWork()
        try store.write { connection in
            _ = try PostgresPlannerStatistics.refresh(
                PostgresStore.factTables, schema: store.url.schema, in: connection)
        }
    }

    func write(_ batches: [DocumentBatch]) throws {
        try store.writeWithConnection { connection in
            // Every lookup of a batch is by key. While a load grows the tables from empty, autovacuum's statistics
            // lag behind and the planner takes a lookup of a batch's 4,000 transaction IDs for most of the table:
            // a sequential scan per batch (3 s each at 100k documents). Without one, the keys' indexes are used;
            // the staging tables, which have no index, are still read in full.
            try connection.executeScript("SET LOCAL enable_seqscan = off")
            try PostgresStagingTables.create(on: connection)
            try writeFiles(batches, connection)
            for file in batches.lazy.flatMap(\.startedFiles) {
                if let old = file.continues {
                    try FileContinuation.continueFile(old, as: file.fileSHA256, on: connection)
                }
            }
            try writeDocuments(batches, connection)
            try writeNotifications(batches, connection)
            try writeRenewalInfos(batches, connection)
            try writeOrderLookups(batches, connection)
            try PostgresTransactionWriter.write(batches, connection)
            try completeFiles(batches, connection)
            for file in batches.lazy.flatMap(\.forgottenFiles) { try FileContinuation.forget(file, on: connection) }
            try StoreSettings.bumpDataVersion(connection)
        }
    }

    private func writeFiles(_ batches: [DocumentBatch], _ connection: PostgresConnection) throws {
        try connection.copy(
            into: "stage_source_files", columns: ["ord", "file_sha256", "path", "byte_count", "first_run_id"]
        ) { rows in
            var ord: Int64 = 0
            for file in batches.lazy.flatMap(\.startedFiles) {
                ord += 1
                rows.add(ord); rows.add(file.fileSHA256); rows.add(file.path); rows.add(file.byteCount);
                rows.add(file.runId)
                rows.endRow()
            }
        }
        // A file half-read by a killed run keeps its row (and its first run).
        try connection.execute(
            """
            INSERT INTO source_files (file_sha256, path, byte_count, state, first_run_id)
            SELECT file_sha256, path, byte_count, 'reading', first_run_id FROM stage_source_files ORDER BY ord
            ON CONFLICT DO NOTHING
            """)
    }

    private func writeDocuments(_ batches: [DocumentBatch], _ connection: PostgresConnection) throws {
        let documentColumns = [
            "file_sha256", "line", "entry", "kind", "outcome", "document_id", "environment", "document_time",
            "is_verified",
        ]
        try connection.copy(into: "stage_documents", columns: ["ord"] + documentColumns) { rows in
            var ord: Int64 = 0
            for row in batches.lazy.flatMap(\.documents) {
                ord += 1
                rows.add(ord); rows.add(row.position.fileSHA256); rows.add(row.position.line);
                rows.add(row.position.entry)
                rows.add(row.kind); rows.add(row.outcome.rawValue); rows.add(row.documentId); rows.add(row.environment)
                rows.add(row.documentTime); rows.add(row.isVerified)
                rows.endRow()
            }
        }
        try insertIgnoringKnownKeys(into: "documents", columns: documentColumns, connection)
        let quarantineColumns = ["file_sha256", "line", "entry", "path", "reason", "message", "excerpt"]
        try connection.copy(into: "stage_quarantine", columns: ["ord"] + quarantineColumns) { rows in
            var ord: Int64 = 0
            for row in batches.lazy.flatMap(\.quarantine) {
                ord += 1
                rows.add(ord); rows.add(row.position.fileSHA256); rows.add(row.position.line);
                rows.add(row.position.entry)
                rows.add(row.path); rows.add(row.reason); rows.add(row.message); rows.add(row.excerpt)
                rows.endRow()
            }
        }
        try insertIgnoringKnownKeys(into: "quarantine", columns: quarantineColumns, connection)
    }

    private static let notificationColumns = [
        "notification_id", "format", "notification_type", "subtype", "environment", "bundle_id", "app_apple_id",
        "version",
        "signed_date", "received_at", "document_time", "transaction_id", "original_transaction_id", "product_id",
        "status",
        "consumption_request_reason", "raw_sha256", "lineage_id", "extra_fields", "is_verified",
    ]

    private func writeNotifications(_ batches: [DocumentBatch], _ connection: PostgresConnection) throws {
        let columns = Self.notificationColumns
        try connection.copy(into: "stage_notifications", columns: ["ord"] + columns) { rows in
            var ord: Int64 = 0
            for row in batches.lazy.flatMap(\.notifications) {
                ord += 1
                rows.add(ord); rows.add(row.notificationId); rows.add(row.format); rows.add(row.notificationType)
                rows.add(row.subtype); rows.add(row.environment); rows.add(row.bundleId); rows.add(row.appAppleId)
                rows.add(row.version); rows.add(row.signedDate); rows.add(row.receivedAt); rows.add(row.documentTime)
                rows.add(row.transactionId); rows.add(row.originalTransactionId); rows.add(row.productId);
                rows.add(row.status)
                rows.add(row.consumptionRequestReason); rows.add(row.rawSHA256); rows.add(row.lineageId)
                rows.add(row.extraFields); rows.add(row.isVerified)
                rows.endRow()
            }
        }
        // Apple's retries carry the same UUID and the same content; if two different bodies ever share a UUID, a
        // verified one wins over an unverified one, then the one with the smaller hash (then the earlier receipt), as
        // SQLite's upsert decides.
        let list = columns.joined(separator: ", ")
        let key: Set = ["lineage_id", "notification_id"]
        let updates = columns.filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        try connection.execute(
            """
            INSERT INTO notifications (\(list))
            SELECT DISTINCT ON (lineage_id, notification_id) \(list) FROM stage_notifications
            ORDER BY lineage_id, notification_id, is_verified DESC, raw_sha256,
                coalesce(received_at, 9223372036854775807), ord
            ON CONFLICT (lineage_id, notification_id) DO UPDATE SET \(updates)
            WHERE excluded.is_verified > notifications.is_verified
                OR (excluded.is_verified = notifications.is_verified
                    AND (excluded.raw_sha256 < notifications.raw_sha256
                        OR (excluded.raw_sha256 = notifications.raw_sha256
                            AND coalesce(excluded.received_at, 9223372036854775807)
                                < coalesce(notifications.received_at, 9223372036854775807))))
            """)
    }

    private func writeRenewalInfos(_ batches: [DocumentBatch], _ connection: PostgresConnection) throws {
        let columns = [
            "document_id", "original_transaction_id", "format", "document_time", "environment", "product_id",
            "auto_renew_product_id", "auto_renew_status", "expiration_intent", "is_in_billing_retry_period",
            "grace_period_expires_date", "price_increase_status", "renewal_date", "signed_date", "app_account_token",
            "extra_fields",
        ]
        try connection.copy(into: "stage_renewal_infos", columns: ["ord"] + columns) { rows in
            var ord: Int64 = 0
            for row in batches.lazy.flatMap(\.renewalInfos) {
                ord += 1
                rows.add(ord); rows.add(row.documentId); rows.add(row.originalTransactionId); rows.add(row.format)
                rows.add(row.documentTime); rows.add(row.environment); rows.add(row.productId);
                rows.add(row.autoRenewProductId)
                rows.add(row.autoRenewStatus); rows.add(row.expirationIntent); rows.add(row.isInBillingRetryPeriod)
                rows.add(row.gracePeriodExpiresDate); rows.add(row.priceIncreaseStatus); rows.add(row.renewalDate)
                rows.add(row.signedDate); rows.add(row.appAccountToken); rows.add(row.extraFields)
                rows.endRow()
            }
        }
        try insertIgnoringKnownKeys(into: "renewal_infos", columns: columns, connection)
    }

    private func writeOrderLookups(_ batches: [DocumentBatch], _ connection: PostgresConnection) throws {
        let columns = ["lookup_id", "order_id", "status", "environment", "document_time", "received_at", "note"]
        try connection.copy(into: "stage_order_lookups", columns: ["ord"] + columns) { rows in
            var ord: Int64 = 0
            for row in batches.lazy.flatMap(\.orderLookups) {
                ord += 1
                rows.add(ord); rows.add(row.lookupId); rows.add(row.orderId); rows.add(row.status);
                rows.add(row.environment)
                rows.add(row.documentTime); rows.add(row.receivedAt); rows.add(row.note)
                rows.endRow()
            }
        }
        // The same order looked up twice: the newest lookup (then the higher status) describes it.
        let list = columns.joined(separator: ", ")
        try connection.execute(
            """
            INSERT INTO order_lookups (\(list))
            SELECT DISTINCT ON (lookup_id) \(list) FROM stage_order_lookups
            ORDER BY lookup_id, coalesce(document_time, -1) DESC, status DESC, ord
            ON CONFLICT (lookup_id) DO UPDATE SET
                status = excluded.status, environment = excluded.environment,
                document_time = excluded.document_time, received_at = excluded.received_at, note = excluded.note
            WHERE (coalesce(excluded.document_time, -1), excluded.status)
                > (coalesce(order_lookups.document_time, -1), order_lookups.status)
            """)
        try connection.copy(into: "stage_order_lookup_transactions", columns: ["ord", "lookup_id", "transaction_id"]) {
            rows in
            var ord: Int64 = 0
            for row in batches.lazy.flatMap(\.orderLookups) {
                for transactionId in row.transactionIds {
                    ord += 1
                    rows.add(ord); rows.add(row.lookupId); rows.add(transactionId)
                    rows.endRow()
                }
            }
        }
        try insertIgnoringKnownKeys(
            into: "order_lookup_transactions", columns: ["lookup_id", "transaction_id"], connection)
    }

    private func completeFiles(_ batches: [DocumentBatch], _ connection: PostgresConnection) throws {
        try connection.copy(into: "stage_completed_files", columns: ["file_sha256", "documents", "run_id"]) { rows in
            for file in batches.lazy.flatMap(\.completedFiles) {
                rows.add(file.fileSHA256); rows.add(file.documents); rows.add(file.runId)
                rows.endRow()
            }
        }
        try connection.execute(
            """
            UPDATE source_files SET state = 'complete', documents = stage_completed_files.documents,
                completed_run_id = stage_completed_files.run_id
            FROM stage_completed_files WHERE source_files.file_sha256 = stage_completed_files.file_sha256
            """)
    }

    /// `insert … select` from the table's staging table in batch order; a key already stored (or met earlier in
    /// the batch) keeps its first row.
    private func insertIgnoringKnownKeys(into table: String, columns: [String], _ connection: PostgresConnection) throws
    {
        let list = columns.joined(separator: ", ")
        try connection.execute(
            "INSERT INTO \(table) (\(list)) SELECT \(list) FROM stage_\(table) ORDER BY ord ON CONFLICT DO NOTHING")
    }
}
