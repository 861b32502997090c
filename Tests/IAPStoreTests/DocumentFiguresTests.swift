import CSQLite
import Foundation
import GRDB
import Testing

@testable import IAPStore

/// The document counts `status` and every report's data-quality section show, on a store in either state a bulk
/// load leaves it: with its secondary indexes, and without them (while the load runs, or after it was killed).
@Suite struct DocumentFiguresTests {
    /// A store of `accepted` accepted documents of which `repeats` repeat an earlier ID, `othersSharingAnID` other
    /// environment documents whose ID an accepted one also carries, `othersAlone` whose ID none does, `tests` TEST
    /// notifications and `quarantined` quarantined documents.
    private struct Shape {
        var accepted = 2_000
        var repeats = 300
        var othersSharingAnID = 150
        var othersAlone = 250
        var tests = 60
        var quarantined = 90
        var documents: Int { accepted + othersSharingAnID + othersAlone + tests + quarantined }
    }

    private func store(_ shape: Shape) throws -> (SQLiteStore, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "iaplens-figures-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: folder + "/store.sqlite")
        try store.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO runs (run_id, command, started_at, outcome, is_verified) VALUES (1, 'test', 'now', 'completed', 1);
                    INSERT INTO source_files (file_sha256, path, byte_count, state, first_run_id)
                    VALUES ('f', 'a.jsonl', 1, 'complete', 1);
                    """)
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO documents (file_sha256, line, entry, kind, outcome, document_id, environment, document_time, is_verified)
                    VALUES ('f', ?, 0, 'v2_notification', ?, ?, 'Production', 0, 1)
                    """)
            var line = 0
            func add(_ outcome: String, _ id: String?) throws {
                try insert.execute(arguments: [line, outcome, id])
                line += 1
            }
            let distinct = shape.accepted - shape.repeats
            // IDs in a scattered order, as SHA-256 identities are.
            for index in 0..<shape.accepted { try add("accepted", "id-\((index * 7_919) % distinct)") }
            for index in 0..<shape.othersSharingAnID { try add("other_environment", "id-\(index * 3)") }
            for index in 0..<shape.othersAlone { try add("other_environment", "other-\(index)") }
            for index in 0..<shape.tests { try add("test_notification", "test-\(index)") }
            for _ in 0..<shape.quarantined { try add("quarantined", nil) }
        }
        return (store, folder)
    }

    /// The figures, and how many of SQLite's virtual-machine steps reading them took (counted in hundreds by a
    /// progress handler): the cost of the query, independent of the machine's speed.
    private func figuresAndSteps(_ store: SQLiteStore) throws -> (DocumentFigures, Int) {
        try store.database.read { db in
            let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
            counter.initialize(to: 0)
            defer { counter.deallocate() }
            sqlite3_progress_handler(
                db.sqliteConnection, 100,
                { context in
                    context!.assumingMemoryBound(to: Int.self).pointee += 1
                    return 0
                }, counter)
            defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
            let figures = try DocumentFigures.read(SQLiteStoreConnection(db))
            return (figures, counter.pointee * 100)
        }
    }

    @Test func theFiguresCountEachDocumentOnce() throws {
        let shape = Shape()
        let (store, folder) = try store(shape)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (figures, _) = try figuresAndSteps(store)
        #expect(figures.documentsRead == shape.documents)
        #expect(figures.accepted == shape.accepted)
        #expect(figures.duplicates == shape.repeats)
        #expect(figures.testNotifications == shape.tests)
        #expect(figures.unverified == 0)
        #expect(figures.filesRead == 1)
    }

    /// `status` reads the store while a bulk load has dropped its secondary indexes. The figures must be the same,
    /// and their cost must stay in proportion to the documents: a lookup that needs a dropped index turns into a
    /// scan of every document for each one (at 1M documents, `status` took 584 s instead of 0.6 s). Doubling the
    /// store must not much more than double the steps; with the correlated look-up it quadrupled them.
    @Test func withoutTheBulkLoadsIndexesTheFiguresAreTheSameAndTheirCostGrowsWithTheStore() throws {
        var steps: [Int] = []
        for scale in [1, 2] {
            var shape = Shape()
            shape.accepted *= scale
            shape.repeats *= scale
            shape.othersSharingAnID *= scale
            shape.othersAlone *= scale
            let (store, folder) = try store(shape)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let (indexed, _) = try figuresAndSteps(store)
            try SQLiteDocumentWriter(store: store).dropSecondaryIndexes()
            let (unindexed, unindexedSteps) = try figuresAndSteps(store)
            #expect(unindexed == indexed)
            #expect(unindexed.duplicates == shape.repeats)
            steps.append(unindexedSteps)
        }
        #expect(steps[1] < steps[0] * 3, "steps at 1x and 2x the documents: \(steps)")
    }
}
