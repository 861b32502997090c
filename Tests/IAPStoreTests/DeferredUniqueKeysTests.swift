import Foundation
import GRDB
import Testing

@testable import IAPStore

/// A bulk load drops the unique keys of `notifications` and `renewal_infos`, inserts every copy, and keeps one
/// row per key when the keys are built again. The rows kept must be exactly those row-by-row writes keep.
@Suite struct DeferredUniqueKeysTests {
    private func notification(_ id: String, raw: String, receivedAt: Int64?, type: String) -> NotificationRow {
        NotificationRow(
            notificationId: id, format: .v2, notificationType: type, subtype: nil, environment: "Production",
            bundleId: "com.example", appAppleId: nil, version: "2.0", signedDate: 1, receivedAt: receivedAt,
            documentTime: 1, transactionId: nil, originalTransactionId: nil, productId: nil, status: nil,
            consumptionRequestReason: nil, rawSHA256: raw, isVerified: true)
    }

    private func renewal(_ documentId: String, _ originalTransactionId: String, product: String) -> RenewalInfoRow {
        var row = RenewalInfoRow(
            documentId: documentId, originalTransactionId: originalTransactionId, format: .v2, documentTime: 1,
            environment: "Production")
        row.productId = product
        return row
    }

    /// Copies of the same notifications and renewal infos, in an order where the winner is neither first nor last.
    private var batches: [DocumentBatch] {
        let rows: [[NotificationRow]] = [
            [
                notification("n1", raw: "bb", receivedAt: 5, type: "first-seen"),
                notification("n2", raw: "aa", receivedAt: nil, type: "n2-late"),
            ],
            [
                notification("n1", raw: "aa", receivedAt: 9, type: "smaller-hash"),
                notification("n2", raw: "aa", receivedAt: 3, type: "n2-early"),
            ],
            [
                notification("n1", raw: "aa", receivedAt: 7, type: "smaller-hash-earlier"),
                notification("n1", raw: "cc", receivedAt: 1, type: "bigger-hash"),
                notification("n3", raw: "dd", receivedAt: nil, type: "only"),
            ],
        ]
        let renewals: [[RenewalInfoRow]] = [
            [renewal("n1", "o1", product: "first"), renewal("n2", "o2", product: "only")],
            [renewal("n1", "o1", product: "second"), renewal("n1", "o9", product: "other key")],
        ]
        return (0..<3).map { index in
            var batch = DocumentBatch()
            batch.notifications = rows[index]
            batch.renewalInfos = index < renewals.count ? renewals[index] : []
            return batch
        }
    }

    private func contents(_ store: SQLiteStore) throws -> [String] {
        try store.database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT notification_id || ' ' || notification_type || ' ' || raw_sha256 || ' ' || coalesce(received_at, '-')
                    FROM notifications ORDER BY notification_id
                    """)
                + String.fetchAll(
                    db,
                    sql: """
                        SELECT document_id || ' ' || original_transaction_id || ' ' || product_id FROM renewal_infos ORDER BY 1
                        """)
        }
    }

    /// How the unique keys get built again after the bulk writes.
    enum Rebuild: String, CaseIterable, CustomTestStringConvertible {
        /// By the writer that dropped them, with its list of suspect keys.
        case withSuspectList
        /// By a new writer, as the first command after a killed load does: no list.
        case afterAKilledLoad
        /// With a list that misses a repeated key: the failed build falls back to grouping every key.
        case withAnIncompleteList
        /// After part of the rows were already in the store before the load: their keys join the list.
        case overEarlierRows

        var testDescription: String { rawValue }
    }

    @Test(arguments: Rebuild.allCases)
    func theKeysBuiltAfterABulkLoadKeepTheRowsRowByRowWritesKeep(_ rebuild: Rebuild) throws {
        let rowByRow = try SQLiteStore.inMemory()
        for batch in batches { try SQLiteDocumentWriter(store: rowByRow).write(batch) }

        let bulk = try SQLiteStore.inMemory()
        let writer = SQLiteDocumentWriter(store: bulk)
        let earlier = rebuild == .overEarlierRows ? 1 : 0
        for batch in batches.prefix(earlier) { try writer.write(batch) }
        try writer.dropSecondaryIndexes()
        for batch in batches.dropFirst(earlier) { try writer.write(batch) }
        #expect(try bulk.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM notifications") } == 7)
        let suspects = try #require(writer.bulkKeys.currentSuspects())
        // n1 and n2 are repeated, so both are suspects (a Bloom filter may add others, never drop these). A
        // notification without a transaction is its own lineage: the key is (lineage, ID).
        #expect(Set(suspects.keys["notifications_by_id"] ?? []).isSuperset(of: [["n1", "n1"], ["n2", "n2"]]))
        #expect(suspects.keys["renewal_infos_by_key"]?.contains(["n1", "o1"]) == true)
        switch rebuild {
        case .withSuspectList, .overEarlierRows:
            #expect(try writer.ensureSecondaryIndexes())
        case .afterAKilledLoad:
            #expect(try SQLiteDocumentWriter(store: bulk).ensureSecondaryIndexes())
        case .withAnIncompleteList:
            let partial = BulkLoadKeys.Suspects(keys: [
                "notifications_by_id": [["n2", "n2"]], "renewal_infos_by_key": [["n9", "o9"]],
            ])
            #expect(try bulk.database.write { db in try SecondaryIndexes.ensure(db, suspects: partial) })
        }

        #expect(try contents(bulk) == contents(rowByRow))
        #expect(
            try contents(bulk) == [
                "n1 smaller-hash-earlier aa 7", "n2 n2-early aa 3", "n3 only dd -",
                "n1 o1 first", "n1 o9 other key", "n2 o2 only",
            ])
        // The keys are back: a later copy goes through the upsert again.
        try writer.write(batches[0])
        #expect(try contents(bulk) == contents(rowByRow))
        #expect(try bulk.database.read { db in try SecondaryIndexes.missing(db) }.isEmpty)
    }

    @Test func theKeyFilterNeverForgetsAKeyAndSeldomImaginesOne() {
        var filter = KeyFilter(bitCountLog2: 20)
        let keys = (0..<20_000).map { "key-\($0)" }
        var imagined = 0
        for key in keys where filter.insert("lineage", key) { imagined += 1 }
        // 20,000 keys in 2^20 bits with 3 probes: about 0.02 % false "maybe"s.
        #expect(imagined < 20)
        var remembered = 0
        for key in keys where filter.insert("lineage", key) { remembered += 1 }
        #expect(remembered == keys.count)
        // Parts are hashed as a sequence: the same text split differently is a different key.
        var pairs = KeyFilter(bitCountLog2: 20)
        let first = pairs.insert("ab", "c")
        let again = pairs.insert("ab", "c")
        #expect(!first && again)
    }

    @Test func aStoreMadeBeforeV4KeepsItsRowsAndGetsUniqueIndexes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iaplens-v4-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/store.sqlite"
        do {
            let queue = try DatabaseQueue(path: path)
            try StoreMigrations.migrator.migrate(queue, upTo: "v3 raw text stays in the archive")
            try queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO notifications (notification_id, format, notification_type, environment, document_time, raw_sha256)
                        VALUES ('n1', 'v2', 'DID_RENEW', 'Production', 1, 'aa');
                        INSERT INTO renewal_infos (document_id, original_transaction_id, format, document_time, environment)
                        VALUES ('n1', 'o1', 'v2', 1, 'Production');
                        CREATE VIEW analysis_view AS SELECT notification_id FROM notifications;
                        """)
            }
        }
        let store = try SQLiteStore(path: path)
        try store.database.read { db in
            #expect(try String.fetchAll(db, sql: "SELECT notification_id FROM analysis_view") == ["n1"])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM renewal_infos") == 1)
            let unique = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM pragma_index_list('notifications') WHERE "unique" UNION ALL
                    SELECT name FROM pragma_index_list('renewal_infos') WHERE "unique" ORDER BY 1
                    """)
            #expect(unique == ["notifications_by_id", "renewal_infos_by_key"])
        }
        #expect(throws: DatabaseError.self) {
            try store.database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO notifications (notification_id, format, notification_type, environment, document_time, raw_sha256)
                        VALUES ('n1', 'v2', 'DID_RENEW', 'Production', 2, 'bb')
                        """)
            }
        }
    }
}
