import GRDB
import Testing

@testable import IAPStore

/// The writer inserts a transaction seen for the first time with one version directly, and merges every other
/// one from all its stored versions. Whatever path a transaction took, its row must equal the merge of all its
/// versions, in any batch order.
@Suite struct TransactionRebuilderTests {
    private func version(_ transactionId: String, time: Int64, hash: String, price: Int64?, revoked: Int64? = nil)
        -> TransactionVersionRow
    {
        var fields = TransactionFields()
        fields.productId = "com.example.monthly"
        fields.price = price
        fields.revocationDate = revoked
        fields.currency = price == nil ? nil : "USD"
        return TransactionVersionRow(
            transactionId: transactionId, documentId: "doc-\(hash)", source: .v2Notification, format: .v2,
            documentTime: time, versionSHA256: hash, environment: "Production", fields: fields)
    }

    private func batch(_ versions: [TransactionVersionRow]) -> DocumentBatch {
        var batch = DocumentBatch()
        batch.transactionVersions = versions
        return batch
    }

    /// Rows of `transactions` as the merge of each transaction's stored versions would make them.
    private func expectedRows(_ store: SQLiteStore) throws -> [MergedTransaction] {
        try store.database.read { db in
            let ids = try String.fetchAll(
                db, sql: "SELECT DISTINCT transaction_id FROM transaction_versions ORDER BY 1")
            return try ids.map { id in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT document_time, version_sha256, price, revocation_date FROM transaction_versions
                        WHERE transaction_id = ?
                        """, arguments: [id])
                let versions = rows.map { row in
                    version(id, time: row[0], hash: row[1], price: row[2], revoked: row[3])
                }
                return try #require(TransactionMerger.merge(versions))
            }
        }
    }

    private func storedRows(_ store: SQLiteStore) throws -> [(String, Int64, Int, Int64?, Int64?)] {
        try store.database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT transaction_id, document_time, version_count, price, revocation_date FROM transactions ORDER BY 1
                    """
            ).map { ($0[0], $0[1], $0[2], $0[3], $0[4]) }
        }
    }

    @Test func everyTransactionRowIsTheMergeOfAllItsVersions() throws {
        let store = try SQLiteStore.inMemory()
        let writer = SQLiteDocumentWriter(store: store)
        // t1: one version per batch, the second one older than the first (files read out of order).
        // t2: two versions in one batch. t3: one version, written twice (a re-read file).
        let first = batch([
            version("t1", time: 200, hash: "b", price: 999),
            version("t2", time: 100, hash: "c", price: 499),
            version("t2", time: 300, hash: "d", price: nil, revoked: 300),
            version("t3", time: 50, hash: "e", price: 199),
        ])
        try writer.write(first)
        try writer.write(batch([version("t1", time: 100, hash: "a", price: 899, revoked: 100)]))
        try writer.write(first)

        let stored = try storedRows(store)
        let expected = try expectedRows(store)
        #expect(stored.count == 3)
        for (row, merged) in zip(stored, expected) {
            #expect(row.0 == merged.transactionId)
            #expect(row.1 == merged.documentTime)
            #expect(row.2 == merged.versionCount)
            #expect(row.3 == merged.fields.price)
            #expect(row.4 == merged.fields.revocationDate)
        }
        // Spelled out: t1's newest version (time 200) is not revoked and keeps its own price.
        #expect(stored[0].2 == 2 && stored[0].3 == 999 && stored[0].4 == nil)
        // t2's newest version carries no price, so the older one's stays; the refund comes from the newest.
        #expect(stored[1].2 == 2 && stored[1].3 == 499 && stored[1].4 == 300)
        #expect(stored[2].2 == 1 && stored[2].3 == 199)
    }

    /// A write carrying several new versions of a transaction that already has a row: laid over it oldest first when
    /// each is newer than the row, merged from storage when one ties with the row or is older. Every case must end as
    /// the merge of all the transaction's versions.
    @Test func severalNewVersionsInOneWriteEndAsTheMergeOfAll() throws {
        let store = try SQLiteStore.inMemory()
        let writer = SQLiteDocumentWriter(store: store)
        try writer.write(
            batch([
                version("t4", time: 100, hash: "a4", price: 499),
                version("t5", time: 200, hash: "b5", price: 499),
                version("t6", time: 200, hash: "b6", price: 499),
            ]))
        try writer.write(
            batch([
                // t4: both newer than the row, out of order in the write; the newer carries no price.
                version("t4", time: 300, hash: "c4", price: nil, revoked: 300),
                version("t4", time: 200, hash: "b4", price: 599),
                // t5: one ties with the row's time (a smaller hash), one is newer.
                version("t5", time: 200, hash: "a5", price: 699),
                version("t5", time: 300, hash: "c5", price: 799),
                // t6: one is older than the row, one newer.
                version("t6", time: 300, hash: "c6", price: nil),
                version("t6", time: 50, hash: "a6", price: 899, revoked: 50),
                // t7: new, two versions, and the same version twice (a file read twice in one write).
                version("t7", time: 20, hash: "b7", price: 199),
                version("t7", time: 10, hash: "a7", price: 99),
                version("t7", time: 20, hash: "b7", price: 199),
            ]))
        let stored = try storedRows(store)
        let expected = try expectedRows(store)
        #expect(stored.count == 4)
        for (row, merged) in zip(stored, expected) {
            #expect(row.0 == merged.transactionId)
            #expect(row.1 == merged.documentTime, "\(row.0)")
            #expect(row.2 == merged.versionCount, "\(row.0)")
            #expect(row.3 == merged.fields.price, "\(row.0)")
            #expect(row.4 == merged.fields.revocationDate, "\(row.0)")
        }
        #expect(stored.map(\.2) == [3, 3, 3, 2])
        #expect(stored[0].3 == 599 && stored[0].4 == 300)
        #expect(stored[1].3 == 799 && stored[2].3 == 499 && stored[2].4 == nil && stored[3].3 == 199)
    }

    /// Every column of every `transactions` row, read back with the writer's own column order.
    private func fullRows(_ store: SQLiteStore) throws -> [MergedTransaction] {
        try store.database.read { db in
            var select = try BoundStatement(
                db,
                sql: """
                    SELECT transaction_id, document_time, version_count, format, environment,
                           \(TransactionColumns.names.joined(separator: ", "))
                    FROM transactions ORDER BY transaction_id
                    """)
            var rows: [MergedTransaction] = []
            try select.forEachRow { row in
                rows.append(
                    MergedTransaction(
                        transactionId: row.string(0) ?? "", documentTime: row.int64(1) ?? -1,
                        versionCount: Int(row.int64(2) ?? -1), format: try .stored(row.string(3), column: "format"),
                        environment: row.string(4) ?? "",
                        fields: row.transactionFields(from: 5)))
            }
            return rows
        }
    }

    private func snapshot(
        _ transactionId: String, time: Int64, hash: String, environment: String = "Production",
        _ edit: (inout TransactionFields) -> Void
    ) -> TransactionVersionRow {
        var fields = TransactionFields()
        edit(&fields)
        return TransactionVersionRow(
            transactionId: transactionId, documentId: "doc-\(transactionId)-\(hash)", source: .v2Notification,
            format: .v2, documentTime: time, versionSHA256: hash, environment: environment, fields: fields)
    }

    @Test("A version newer than its transaction's row is laid over it; ties and older ones are merged from storage")
    func newerVersionsLaidOverTheRow() throws {
        let store = try SQLiteStore.inMemory()
        let writer = SQLiteDocumentWriter(store: store)
        let versions: [TransactionVersionRow] = [
            // a: purchase, refund, then a later snapshot without revocation (REFUND_REVERSED), in time order.
            snapshot("a", time: 100, hash: "a1") {
                $0.productId = "p.monthly"; $0.price = 4_990; $0.currency = "USD"; $0.expiresDate = 1_000
                $0.offerType = 1; $0.isTrialPeriod = true; $0.appAccountToken = "token-a"
            },
            snapshot("a", time: 200, hash: "a2") {
                $0.expiresDate = 2_000; $0.revocationDate = 200; $0.revocationReason = 1
                $0.revocationType = "REFUND_FULL"; $0.revocationPercentage = 100_000; $0.storefront = "USA"
            },
            snapshot("a", time: 300, hash: "a3", environment: "Sandbox") {
                $0.isUpgraded = true; $0.isTrialPeriod = false; $0.price = 5_990
            },
            // b: three versions at the same time; the hash decides which is newest.
            snapshot("b", time: 100, hash: "m") {
                $0.price = 1; $0.revocationDate = 100
            },
            snapshot("b", time: 100, hash: "a") {
                $0.price = 2; $0.currency = "EUR"
            },
            snapshot("b", time: 100, hash: "z") { $0.quantity = 3 },
            // c: an older version after a newer one, then a newer one over the rebuilt row.
            snapshot("c", time: 300, hash: "c3") {
                $0.price = 300; $0.storefront = "FRA"
            },
            snapshot("c", time: 200, hash: "c2") {
                $0.price = 200; $0.revocationDate = 250; $0.signedDate = 200
            },
            snapshot("c", time: 400, hash: "c4") {
                $0.storefront = "DEU"; $0.revocationReason = 0
            },
        ]
        // One version per write, in the order above: each takes the path its time puts it on.
        for version in versions { try writer.write(batch([version])) }
        // A version written again changes nothing.
        try writer.write(batch([versions[1]]))

        let expected = try ["a", "b", "c"].map { id in
            try #require(TransactionMerger.merge(versions.filter { $0.transactionId == id }))
        }
        let stored = try fullRows(store)
        #expect(stored == expected)
        // Spelled out for a: the newest snapshot clears the refund, keeps the token, and moves to Sandbox.
        #expect(stored.first?.fields.revocationDate == nil && stored.first?.fields.appAccountToken == "token-a")
        #expect(stored.first?.versionCount == 3 && stored.first?.environment == "Sandbox")
        #expect(stored.first?.fields.isTrialPeriod == false && stored.first?.fields.price == 5_990)
    }

    @Test("The newest-version update applies only to a strictly newer version")
    func newestVersionUpdateNeedsAStrictlyNewerVersion() throws {
        let store = try SQLiteStore.inMemory()
        try SQLiteDocumentWriter(store: store).write(batch([version("t", time: 200, hash: "m", price: 100)]))
        let outcomes = try store.database.write { db in
            var statement = try TransactionRebuilder.newestVersionStatement(db)
            return try [
                version("t", time: 100, hash: "z", price: 1), version("t", time: 200, hash: "z", price: 2),
                version("unknown", time: 900, hash: "z", price: 3), version("t", time: 201, hash: "a", price: nil),
            ].map { try TransactionRebuilder.mergeIfNewest($0, using: &statement) }
        }
        #expect(outcomes == [false, false, false, true])
        let row = try #require(try fullRows(store).first)
        #expect(row.documentTime == 201 && row.versionCount == 2 && row.fields.price == 100)
    }

    @Test("A transaction's first and only version is stored as the merge of that one version, every field")
    func aSingleVersionIsStoredAsItsOwnMerge() throws {
        let store = try SQLiteStore.inMemory()
        // Every field set, so a field the single-version insert forgot would show as NULL.
        let only = snapshot("solo", time: 500, hash: "s1", environment: "Sandbox") {
            $0.originalTransactionId = "orig-solo"; $0.webOrderLineItemId = "w"; $0.bundleId = "b"; $0.productId = "p"
            $0.subscriptionGroupIdentifier = "g"; $0.purchaseDate = 1; $0.originalPurchaseDate = 2; $0.expiresDate = 3
            $0.quantity = 4; $0.type = "Auto-Renewable Subscription"; $0.appAccountToken = "t"
            $0.inAppOwnershipType = "PURCHASED"; $0.signedDate = 5; $0.revocationDate = 6; $0.revocationReason = 1
            $0.revocationType = "REFUND_PRORATED"; $0.revocationPercentage = 50_000; $0.isUpgraded = false
            $0.isTrialPeriod = true; $0.offerType = 2; $0.offerDiscountType = "PAY_AS_YOU_GO"; $0.storefront = "USA"
            $0.transactionReason = "PURCHASE"; $0.currency = "USD"; $0.price = 9_990; $0.appTransactionId = "app"
        }
        try SQLiteDocumentWriter(store: store).write(batch([only]))
        let stored = try fullRows(store)
        #expect(stored == [try #require(TransactionMerger.merge([only]))])
        let lineage = try store.database.read { db in
            try String.fetchOne(db, sql: "SELECT lineage_id FROM transactions")
        }
        #expect(lineage == "orig-solo")
    }

    @Test("The writer's key digest reads both parts as one sequence and every byte of each")
    func keyDigestsTellKeysApart() {
        #expect(KeyDigest.of("ab", "c") != KeyDigest.of("a", "bc"))
        #expect(
            KeyDigest.of("2000000123456789", "2000000123456789") == KeyDigest.of("2000000123456789", "2000000123456789")
        )
        // Small strings (15 bytes or fewer), long ones, and non-ASCII text all count.
        let keys = ["", "a", "é", "2000000123456789", "2000000123456788", String(repeating: "x", count: 100)]
        var digests = Set<UInt64>()
        for first in keys { for second in keys { digests.insert(KeyDigest.of(first, second)) } }
        #expect(digests.count == keys.count * keys.count)
        // The final mix spreads a one-byte change over the low bits the Bloom filter uses.
        let low = Set((0..<1_000).map { KeyDigest.of("lineage", "key-\($0)") & 0xFFFF })
        #expect(low.count > 980)
    }
}
