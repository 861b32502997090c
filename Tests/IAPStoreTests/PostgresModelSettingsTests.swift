import IAPTestSupport
import Testing

@testable import IAPStore

/// The session and transaction settings the models build with on PostgreSQL (Documentation/Performance.md,
/// "The report on every core"), read back from the real server: a setting the server refused, or one that outlived the models'
/// transaction, would show here.
@Suite struct PostgresModelSettingsTests {
    @Test func theModelsBuildWithRoomForTheirTemporaryTablesSortsAndIndexes() throws {
        let store = try StoreLocation(try TestPostgres.freshStore()).open()
        func transactionSettings() throws -> [String] {
            try store.read { connection in
                try ["work_mem", "maintenance_work_mem"].map { try connection.value("SHOW \($0)").text ?? "" }
            }
        }
        let before = try transactionSettings()
        let inside = try store.buildModels { connection in
            try ["temp_buffers", "work_mem", "maintenance_work_mem"].map {
                try connection.value("SHOW \($0)").text ?? ""
            }
        }
        #expect(inside == [PostgresStore.modelTemporaryBuffers, "64MB", "256MB"])
        #expect(try transactionSettings() == before, "the models' settings end with their transaction")
        #expect(before != ["64MB", "256MB"], "the server's own settings differ, or the test proves nothing")
    }

    /// Every session asks the server to end its statement when iaplens is gone: a killed analyze's model query ran on
    /// for over ten minutes, and the next analyze waited behind it (on a V1 archive of 235,000 notifications, killed with
    /// `kill -9`: the three backends of that query were gone within 5 s of the kill with this setting).
    @Test func everySessionEndsItsStatementWhenIaplensIsGone() throws {
        let url = try PostgresURL(try TestPostgres.freshStore())
        let connection = try PostgresStore.connect(url)
        let version = try connection.integer("SELECT current_setting('server_version_num')::int") ?? 0
        try #require(version >= 140_000, "the test server is PostgreSQL \(version): the setting needs 14 or later")
        #expect(try connection.value("SHOW client_connection_check_interval").text == PostgresStore.clientCheckInterval)
        let workspace = try #require(try PostgresModelWorkspace.open(store: try PostgresStore(url: url), count: 2))
        defer { workspace.close() }
        for worker in 0..<workspace.workerCount {
            #expect(
                try workspace.withWorker(worker) { try $0.value("SHOW client_connection_check_interval").text }
                    == PostgresStore.clientCheckInterval)
        }
    }

    /// Statistics are gathered where the server has none, and again only where a table's size moved by more than a
    /// tenth: a run that adds a few rows to a large table does not sample it again (3.9 s of every analyze at 1M).
    @Test func plannerStatisticsAreGatheredWhereTheDataMovedAndNowhereElse() throws {
        let database = try TestPostgres.freshStore()
        let url = try PostgresURL(database)
        let store = try StoreLocation(database).open()
        func insertProducts(_ lines: ClosedRange<Int>) throws {
            try store.write { connection in
                try connection.executeScript(
                    "INSERT INTO ref_products (line, product_id, product_type, currency, price_milli) "
                        + "SELECT n, 'com.example.p' || n, 'consumable', 'USD', 990 FROM generate_series(\(lines.lowerBound), \(lines.upperBound)) AS n"
                )
            }
        }
        func refresh() throws -> [String] {
            try store.write { connection in
                try PostgresPlannerStatistics.refresh(
                    ["ref_products", "ref_accounts"], schema: url.schema, in: connection)
            }
        }
        try insertProducts(1...20_000)
        #expect(try refresh() == ["ref_products", "ref_accounts"], "a new store has no statistics")
        #expect(
            try refresh() == ["ref_accounts"], "nothing moved; an empty table never has statistics (and costs nothing)")
        try insertProducts(20_001...20_100)
        #expect(try refresh() == ["ref_accounts"], "half a percent more rows")
        try insertProducts(20_101...24_000)
        #expect(try refresh() == ["ref_products", "ref_accounts"], "a fifth more rows")
        let sampled = try store.read {
            try $0.value(
                "SELECT count(*) FROM pg_stats WHERE schemaname = ? AND tablename = 'ref_products'", [.text(url.schema)]
            ).integer
        }
        #expect((sampled ?? 0) > 0)
    }

    @Test func aTableHasMovedWhenItsSizeChangedByMoreThanATenth() {
        #expect(!PostgresPlannerStatistics.hasMoved(from: 1_000_000, to: 1_100_000))
        #expect(PostgresPlannerStatistics.hasMoved(from: 1_000_000, to: 1_100_001))
        #expect(PostgresPlannerStatistics.hasMoved(from: 1_000_000, to: 899_999))
        #expect(PostgresPlannerStatistics.hasMoved(from: 0, to: 8_192))
        #expect(!PostgresPlannerStatistics.hasMoved(from: 0, to: 0))
    }
}
