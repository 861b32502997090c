import Foundation
import IAPStore
import Testing

/// The connections SQLite builds models on at once: each worker's tables readable by the others, nothing in the
/// store until the one publishing transaction, nothing left beside the store afterwards.
@Suite("SQLiteModelWorkspace")
struct SQLiteModelWorkspaceTests {
    func store() throws -> SQLiteStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "iaplens-workspace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path)
    }

    func scratchFiles(_ store: SQLiteStore) throws -> [String] {
        let folder = (store.path as NSString).deletingLastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("-models-") }.sorted()
    }

    @Test func oneConnectionWhereNoSecondOneHelps() throws {
        #expect(try SQLiteStore.inMemory().makeModelWorkspace(workers: 2) == nil)
        #expect(try store().makeModelWorkspace(workers: 1) == nil)
    }

    @Test func workersReadEachOthersTablesAndOnlyPublishChangesTheStore() throws {
        // Given a workspace of two workers over a store
        let store = try store()
        let workspace = try #require(try store.makeModelWorkspace(workers: 2))
        #expect(workspace.workerCount == 2)
        #expect(
            try scratchFiles(store).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
                == ["store.sqlite-models-0", "store.sqlite-models-1"])
        // When worker 0 builds a table and worker 1 one from it
        let first = workspace.schema(ofWorker: 0)
        let second = workspace.schema(ofWorker: 1)
        try workspace.withWorker(0) {
            try $0.executeScript("create table \(first).numbers as select 1 as n union all select 2")
        }
        try workspace.withWorker(1) {
            try $0.executeScript("create table \(second).doubled as select n * 2 as n from \(first).numbers")
        }
        // Then the store has neither; a publishing transaction that fails leaves it so; one that succeeds copies
        #expect(try store.read { try $0.tableExists("doubled") } == false)
        struct Abandoned: Error {}
        #expect(throws: Abandoned.self) {
            try workspace.publish { connection in
                try connection.executeScript("create table main.doubled as select * from \(second).doubled")
                throw Abandoned()
            }
        }
        #expect(try store.read { try $0.tableExists("doubled") } == false)
        let sum = try workspace.publish { connection in
            try connection.executeScript("create table main.doubled as select * from \(second).doubled")
            return try connection.integer("select sum(n) from main.doubled")
        }
        #expect(sum == 6)
        #expect(try store.read { try $0.integer("select sum(n) from doubled") } == 6)
        // And closing removes the scratch files (twice is harmless)
        workspace.close()
        workspace.close()
        #expect(try scratchFiles(store).isEmpty)
    }
}
