import Foundation
import GRDB
import Testing

@testable import IAPStore

/// A grown file takes over the rows of its earlier state (but the last line, which may have been cut), and a file
/// that changed while it was read leaves no row behind. On SQLite here; the PostgreSQL writer runs
/// the same statements and `AppendedFileTests` covers it end to end on both engines.
@Suite struct FileContinuationTests {
    private func store() throws -> SQLiteStore {
        let folder = NSTemporaryDirectory() + "iaplens-continuation-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try SQLiteStore(path: folder + "/store.sqlite")
    }

    /// A file of `lines` lines, the last one quarantined, registered and complete.
    private func file(_ hash: String, lines: Int, runId: Int64, continues: String? = nil) -> DocumentBatch {
        var batch = DocumentBatch()
        batch.startedFiles = [
            StartedFile(
                fileSHA256: hash, path: "/archive/m.jsonl", byteCount: Int64(lines * 10), runId: runId,
                continues: continues)
        ]
        for line in 1...lines {
            let position = DocumentPosition(fileSHA256: hash, line: line, entry: 0)
            let isLast = line == lines
            batch.documents.append(
                DocumentRow(
                    position: position, kind: isLast ? .unknown : .v2Notification,
                    outcome: isLast ? .quarantined : .accepted,
                    documentId: isLast ? nil : "doc-\(line)", environment: isLast ? nil : "Production",
                    documentTime: isLast ? nil : 1_700_000_000_000, isVerified: true))
            if isLast {
                batch.quarantine.append(
                    QuarantineRow(
                        position: position, path: "/archive/m.jsonl", reason: "bad_json", message: "cut",
                        excerpt: "{\"a"))
            }
        }
        batch.completedFiles = [CompletedFile(fileSHA256: hash, documents: lines, runId: runId)]
        return batch
    }

    private func counts(_ store: SQLiteStore) throws -> [String] {
        try store.database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT file_sha256 || ' ' || (SELECT count(*) FROM documents d WHERE d.file_sha256 = f.file_sha256) || ' '
                        || (SELECT count(*) FROM quarantine q WHERE q.file_sha256 = f.file_sha256)
                    FROM source_files f ORDER BY 1
                    """)
        }
    }

    @Test func aGrownFileTakesOverItsEarlierRowsButTheLastLine() throws {
        let store = try store()
        let runId = try RunLog(store: store).begin(command: "ingest", isVerified: true)
        let writer = store.makeDocumentWriter()
        try writer.write(file("h1", lines: 3, runId: runId))
        #expect(try counts(store) == ["h1 3 1"])
        // The grown file registers as h2 continuing h1: lines 1–2 move over, line 3 (the cut one) does not.
        var started = DocumentBatch()
        started.startedFiles = [
            StartedFile(fileSHA256: "h2", path: "/archive/m.jsonl", byteCount: 50, runId: runId, continues: "h1")
        ]
        try writer.write(started)
        #expect(try counts(store) == ["h2 2 0"])
        // Reading the whole grown file then adds only what is new: its lines 1–2 meet their keys.
        try writer.write(file("h2", lines: 5, runId: runId))
        #expect(try counts(store) == ["h2 5 1"])
        #expect(
            try writer.fileRegistrations() == [FileRegistration(path: "/archive/m.jsonl", sha256: "h2", byteCount: 50)])
    }

    @Test func aFileThatChangedWhileReadLeavesNoRow() throws {
        let store = try store()
        let runId = try RunLog(store: store).begin(command: "ingest", isVerified: true)
        let writer = store.makeDocumentWriter()
        try writer.write(file("kept", lines: 2, runId: runId))
        var read = file("changed", lines: 4, runId: runId)
        read.completedFiles = []
        read.forgottenFiles = ["changed"]
        try writer.write(read)
        #expect(try counts(store) == ["kept 2 1"])
        #expect(try writer.completedFileHashes() == ["kept"])
    }
}
