import Foundation
import GRDB
import Testing

@testable import IAPStore

/// A store read where its reader may not write (``SQLiteStore/readingOnly(path:_:)``): nothing is written beside it,
/// and a read the file moved under is made again.
@Suite struct SQLiteStoreReadingTests {
    private func closedStore() throws -> (path: String, folder: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "iaplens-reading-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/store #1?.sqlite"
        let store = try SQLiteStore(path: path)
        try store.database.close()
        return (path, folder)
    }

    private func migrationsRun(_ store: SQLiteStore) throws -> Int {
        try store.read { connection in Int(try connection.integer("SELECT count(*) FROM grdb_migrations") ?? 0) }
    }

    @Test func aClosedStoreIsReadWithoutAFileBesideIt() throws {
        let (path, folder) = try closedStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(before == ["store #1?.sqlite"])
        let count = try SQLiteStore.readingOnly(path: path) { store in try migrationsRun(store) }
        #expect(count == StoreMigrations.migrator.migrations.count)
        // Immutable: no -wal, no -shm made, so it works in a folder this user cannot write.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)
        // Read-only: a write is refused.
        #expect(throws: (any Error).self) {
            try SQLiteStore.readingOnly(path: path) { store in
                try store.write { connection in try connection.execute("CREATE TABLE written(x)") }
            }
        }
    }

    @Test func aFileThatMovesWhileItIsReadIsReadAgain() throws {
        let (path, folder) = try closedStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A run copying its log into the file as it is read: the file's time moves once, then the read is made again.
        var reads = 0
        let count = try SQLiteStore.readingOnly(path: path) { store in
            reads += 1
            if reads == 1 { try Self.touch(path, seconds: 1_000_000) }
            return try migrationsRun(store)
        }
        #expect(reads == 2 && count > 0)
        // A file that moves at every read: said, after the attempts.
        reads = 0
        #expect {
            try SQLiteStore.readingOnly(path: path) { store in
                reads += 1
                try Self.touch(path, seconds: 2_000_000 + reads)
                return try migrationsRun(store)
            }
        } throws: { error in
            "\(error)".contains("changed each time it was read")
        }
        #expect(reads == SQLiteStore.readAttempts)
    }

    @Test func anOlderStoreIsNotUpgradedByAReader() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "iaplens-reading-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/old.sqlite"
        let queue = try DatabaseQueue(path: path)
        let first = try #require(StoreMigrations.migrator.migrations.first)
        try StoreMigrations.migrator.migrate(queue, upTo: first)
        try queue.close()
        #expect {
            try SQLiteStore.readingOnly(path: path) { _ in 0 }
        } throws: { error in
            "\(error)".contains("written by an older iaplens and this user cannot upgrade it")
        }
        let unchanged = try DatabaseQueue(path: path)
        #expect(try unchanged.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") } == 1)
        try unchanged.close()
    }

    @Test func theURIEscapesWhatSQLiteWouldReadAsItsQuery() {
        #expect(SQLiteStore.immutableURI("/a/b #1?%é.sqlite") == "file:/a/b %231%3F%25%C3%A9.sqlite?immutable=1")
        #expect(SQLiteStore.immutableURI("x.sqlite").hasSuffix("/x.sqlite?immutable=1"))
    }

    private static func touch(_ path: String, seconds: Int) throws {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw POSIXError(.EPERM) }
    }
}
