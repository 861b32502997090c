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
            transactionId: transactionId, documentId: "doc-\(hash)", source: "v2_notification", format: "v2",
            documentTime: time, versionSHA256: hash, environment: "Production", fields: fields)
    }

    private func batch(_ versions: [TransactionVersionRow]) -> DocumentBatch {
        var batch = DocumentBatch()
        batch.transactionVersions = versions
        return batch
    }

    /// Rows of `transactions` as the merge of each transaction's stored versions would make them.
    private func expectedRows(_ store: Store) throws -> [MergedTransaction] {
        try store.database.read { db in
            let ids = try String.fetchAll(db, sql: "SELECT DISTINCT transaction_id FROM transaction_versions ORDER BY 1")
            return try ids.map { id in
                let rows = try Row.fetchAll(db, sql: """
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

    private func storedRows(_ store: Store) throws -> [(String, Int64, Int, Int64?, Int64?)] {
        try store.database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT transaction_id, document_time, version_count, price, revocation_date FROM transactions ORDER BY 1
                """).map { ($0[0], $0[1], $0[2], $0[3], $0[4]) }
        }
    }

    @Test func everyTransactionRowIsTheMergeOfAllItsVersions() throws {
        let store = try Store.inMemory()
        let writer = StoreWriter(store: store)
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
}
