import Foundation
import IAPFormats
import IAPTestSupport
import Testing

@testable import IAPPipeline

/// The reader thread stays a bounded queue however slow the consumer is (flat memory on large files).
@Suite struct PrefetchingReaderTests {
    @Test func aSlowConsumerNeverMakesTheReaderHoldMoreThanItsCapacity() throws {
        let archive = try TestArchive()
        let path = try archive.write("many.jsonl", lines: (0..<2_000).map { "{\"n\": \($0)}" })
        let reader = PrefetchingReader(file: InputFile(path: path, byteCount: 0), chunkSize: 10, capacity: 2)
        var lines = 0
        var mostBuffered = 0
        while let chunk = reader.next() {
            lines += chunk.count
            // Let the reader run ahead as far as it may before looking.
            Thread.sleep(forTimeInterval: 0.001)
            mostBuffered = max(mostBuffered, reader.bufferedChunks)
        }
        #expect(lines == 2_000)
        #expect(mostBuffered <= 2)
    }
}
