import IAPTestSupport
import Testing

@testable import IAPStore

/// A bulk load on PostgreSQL ends as the server's documentation advises: with the planner statistics of what it
/// loaded, so that the next `analyze` (or any query planned before autovacuum samples the tables) finds them.
@Suite struct PostgresDocumentWriterTests {
    private func notification(_ id: String) -> NotificationRow {
        NotificationRow(
            notificationId: id, format: .v2, notificationType: "SUBSCRIBED", subtype: "INITIAL_BUY",
            environment: "Production",
            bundleId: "com.example", appAppleId: nil, version: "2.0", signedDate: 1, receivedAt: nil, documentTime: 1,
            transactionId: nil, originalTransactionId: nil, productId: nil, status: nil, consumptionRequestReason: nil,
            rawSHA256: "hash-" + id, isVerified: true)
    }

    @Test func aBulkLoadEndsWithThePlannerStatisticsOfWhatItLoaded() throws {
        let database = try TestPostgres.freshStore()
        let url = try PostgresURL(database)
        let store = try #require(try StoreLocation(database).open() as? PostgresStore)
        let writer = store.makeDocumentWriter()
        #expect(
            try writer.beginIngest(files: [(path: "archive.jsonl", byteCount: 1 << 30)]),
            "a gigabyte into an empty store is a bulk load")
        var batch = DocumentBatch()
        batch.notifications = (0..<2_000).map { notification("n\($0)") }
        try writer.write([batch])
        try writer.finishIngest()

        let sampled = try store.read { connection in
            try connection.value(
                "SELECT count(*) FROM pg_stats WHERE schemaname = ? AND tablename = 'notifications'",
                [.text(url.schema)]
            ).integer
        }
        #expect((sampled ?? 0) > 0, "the server holds statistics of the loaded table")
        let stale = try store.write { connection in
            try PostgresPlannerStatistics.refresh(["notifications"], schema: url.schema, in: connection)
        }
        #expect(stale.isEmpty, "analyze finds the load's statistics fresh and gathers none again")
    }
}
