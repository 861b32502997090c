import IAPFormats
import IAPTestSupport
import Testing

/// What a file's identity rests on: the digest of its first bytes (is it an earlier file with
/// lines appended?), and reading exactly the bytes that were hashed.
@Suite struct FileIdentityTests {
    @Test func theDigestOfTheFirstBytesIsTakenOnTheWay() throws {
        let folder = try TemporaryFolder()
        let before = "{\"a\":1}\n{\"a\":2}\n"
        let file = try folder.write("f.jsonl", before + "{\"a\":3}\n")
        let earlier = FileDigest.sha256Hex(of: Array(before.utf8))
        let digest = try FileDigest.digest(ofFileAt: file.path, prefixLength: Int64(before.utf8.count))
        #expect(digest.prefixSHA256 == earlier)
        #expect(digest.sha256 == (try FileDigest.sha256Hex(ofFileAt: file.path)))
        #expect(digest.byteCount == file.byteCount)
        // A file shorter than the prefix has no prefix digest.
        #expect(try FileDigest.digest(ofFileAt: file.path, prefixLength: 10_000).prefixSHA256 == nil)
    }

    @Test func aReaderReadsOnlyTheBytesThatWereHashed() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("f.jsonl", "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n")
        var reader = DocumentReader(file: file)
        reader.byteLimit = 16  // the first two lines: what the file held when it was hashed
        let digest = StreamingDigest()
        var iterator = reader.makeIterator(digest: digest)
        var lines: [Int] = []
        while let item = iterator.next() {
            if case .document(let line, _) = item { lines.append(line) }
        }
        iterator.drain()
        #expect(lines == [1, 2])
        #expect(digest.byteCount == 16)
        #expect(digest.hex == FileDigest.sha256Hex(of: Array("{\"a\":1}\n{\"a\":2}\n".utf8)))
    }

    @Test func theDigestCoversBytesAfterGzipDamage() throws {
        let folder = try TemporaryFolder()
        let good = Gzip.compress(Array("{\"a\":1}\n".utf8)) ?? []
        let bytes = good + [0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x03]
        let file = try folder.write("f.jsonl.gz", bytes)
        let digest = StreamingDigest()
        var iterator = DocumentReader(file: file).makeIterator(digest: digest)
        while iterator.next() != nil {}
        iterator.drain()
        #expect(digest.hex == FileDigest.sha256Hex(of: bytes))
    }

    /// The reader hashes the bytes it reads and compares them with the hasher's: the same however the bytes arrive,
    /// and another digest for other bytes of the same size.
    @Test func theReadersDigestIsTheHashersAndTellsARewriteApart() throws {
        let folder = try TemporaryFolder()
        // Over 256 KB: read in two pieces, hashed in one pass of 1 MB.
        let text = (1...40_000).map { "{\"n\":\($0)}\n" }.joined()
        let file = try folder.write("f.jsonl", text)
        let hashed = try FileDigest.digest(ofFileAt: file.path, prefixLength: nil)
        let read = StreamingDigest()
        var iterator = DocumentReader(file: file).makeIterator(digest: read)
        while iterator.next() != nil {}
        iterator.drain()
        #expect(read.hex == hashed.sha256)
        #expect(read.byteCount == hashed.byteCount)

        // The same size, one digit other.
        let rewrittenText = (1...40_000).map { "{\"n\":\($0 == 39_999 ? 39_998 : $0)}\n" }.joined()
        let rewritten = try folder.write("g.jsonl", rewrittenText)
        let other = try FileDigest.digest(ofFileAt: rewritten.path, prefixLength: nil)
        #expect(other.byteCount == hashed.byteCount)
        #expect(other.sha256 != hashed.sha256)
    }
}
