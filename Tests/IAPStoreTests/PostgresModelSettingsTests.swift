@testable import IAPStore
import IAPTestSupport
import Testing

/// The session and transaction settings the models build with on PostgreSQL (Documentation/Performance.md,
/// "Session 9"), read back from the real server: a setting the server refused, or one that outlived the models'
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
            try ["temp_buffers", "work_mem", "maintenance_work_mem"].map { try connection.value("SHOW \($0)").text ?? "" }
        }
        #expect(inside == [PostgresStore.modelTemporaryBuffers, "64MB", "256MB"])
        #expect(try transactionSettings() == before, "the models' settings end with their transaction")
        #expect(before != ["64MB", "256MB"], "the server's own settings differ, or the test proves nothing")
    }
}
