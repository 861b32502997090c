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
        let reader = ArchiveReader(files: [InputFile(path: path, byteCount: 0)], alreadyRead: [], chunkSize: 10, capacity: 2)
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
        #expect(log == ["start a.jsonl", "read 1", "read 1", "end a.jsonl", "skip b.jsonl", "skip c.jsonl", "unreadable missing.jsonl"])
    }
}
