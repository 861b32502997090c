import Foundation
import IAPFormats
import IAPTestSupport
import Testing

@testable import IAPPipeline

/// The reader thread stays a bounded queue however slow the consumer is (flat memory on large archives),
/// and hands files over in order, skipping content already read.
@Suite struct ArchiveReaderTests {
    @Test func aSlowConsumerNeverMakesTheReaderHoldMoreThanItsCapacity() throws {
        let archive = try TestArchive()
        let path = try archive.write("many.jsonl", lines: (0..<2_000).map { "{\"n\": \($0)}" })
        let reader = ArchiveReader(
            files: [InputFile(path: path, byteCount: 0)], alreadyRead: [], chunkSize: 10, capacity: 2)
        var lines = 0
        var mostBuffered = 0
        while let event = reader.next() {
            if case .read(_, let chunk) = event { lines += chunk.count }
            // Let the reader run ahead as far as it may before looking.
            Thread.sleep(forTimeInterval: 0.001)
            mostBuffered = max(mostBuffered, reader.bufferedEvents)
        }
        #expect(lines == 2_000)
        #expect(mostBuffered <= 2)
    }

    @Test func filesComeInOrderAndKnownContentIsSkipped() throws {
        let archive = try TestArchive()
        let first = try archive.write("a.jsonl", lines: ["{\"n\": 1}", "{\"n\": 2}"])
        let copy = try archive.write("b.jsonl", lines: ["{\"n\": 1}", "{\"n\": 2}"])
        let other = try archive.write("c.jsonl", lines: ["{\"n\": 3}"])
        let known = try FileDigest.sha256Hex(ofFileAt: other)
        let files = [first, copy, other, archive.inputs + "/missing.jsonl"].map { InputFile(path: $0, byteCount: 0) }
        let reader = ArchiveReader(files: files, alreadyRead: [known], chunkSize: 1)
        var log: [String] = []
        while let event = reader.next() {
            switch event {
            case .started(let file): log.append("start \((file.path as NSString).lastPathComponent)")
            case .read(_, let items): log.append("read \(items.count)")
            case .finished(let file): log.append("end \((file.path as NSString).lastPathComponent)")
            case .changed(let file): log.append("changed \((file.path as NSString).lastPathComponent)")
            case .skipped(let input): log.append("skip \((input.path as NSString).lastPathComponent)")
            case .unreadable(let input, _): log.append("unreadable \((input.path as NSString).lastPathComponent)")
            case .processed: log.append("processed")
            }
        }
        // b.jsonl has a.jsonl's content; c.jsonl is already in the store.
        #expect(
            log == [
                "start a.jsonl", "read 1", "read 1", "end a.jsonl", "skip b.jsonl", "skip c.jsonl",
                "unreadable missing.jsonl",
            ])
    }

    /// A file rewritten between its hashing and its reading is reported as changed (the loader then
    /// removes its rows, so the next run reads it afresh), never recorded under a hash of other bytes. The hasher
    /// works one file ahead: while the reader waits on a full queue inside the first file, the second is already
    /// hashed; it is then rewritten (same size, other bytes) before the reader gets to it.
    @Test func aFileRewrittenAfterItsHashIsReportedChanged() throws {
        let archive = try TestArchive()
        let first = try archive.write("a.jsonl", lines: (0..<50).map { "{\"n\": \($0)}" })
        let second = try archive.write("b.jsonl", lines: ["{\"n\": 1}"])
        let appended = try archive.write("c.jsonl", lines: ["{\"n\": 2}"])
        let files = [first, second, appended].map { InputFile(path: $0, byteCount: 0) }
        let reader = ArchiveReader(files: files, alreadyRead: [], chunkSize: 1, capacity: 2)
        // The reader fills its queue inside a.jsonl and waits; b.jsonl and c.jsonl get hashed meanwhile (two tiny
        // files: a second is ample even on a loaded machine).
        Thread.sleep(forTimeInterval: 1)
        try Data("{\"n\": 7}\n".utf8).write(to: URL(fileURLWithPath: second))
        // Bytes appended after hashing are left for the next run, not read under the old hash.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: appended))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"n\": 3}\n".utf8))
        try handle.close()
        var ends: [String] = []
        var linesOfC = 0
        while let event = reader.next() {
            switch event {
            case .finished(let file): ends.append("finished \((file.path as NSString).lastPathComponent)")
            case .changed(let file): ends.append("changed \((file.path as NSString).lastPathComponent)")
            case .read(let file, let items) where file.path == appended: linesOfC += items.count
            default: break
            }
        }
        #expect(ends == ["finished a.jsonl", "changed b.jsonl", "finished c.jsonl"])
        #expect(linesOfC == 1)
    }
}
