import Foundation
import IAPTestSupport
import Testing

@testable import IAPFormats

@Suite struct DocumentReaderTests {
    @Test func jsonLinesSkipBlankLinesToleratesCRLFAndCountsEveryLine() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("a.jsonl", "\u{FEFF}{\"a\":1}\r\n\n   \r\n{\"b\":2}\n\n{\"c\":3}")
        #expect(readAll(file) == [.document(1, #"{"a":1}"#), .document(4, #"{"b":2}"#), .document(6, #"{"c":3}"#)])
    }

    @Test func ndjsonAndEmptyFiles() throws {
        let folder = try TemporaryFolder()
        #expect(readAll(try folder.write("x.ndjson", "1\n2\n")) == [.document(1, "1"), .document(2, "2")])
        #expect(readAll(try folder.write("empty.jsonl", "")) == [])
        // An empty .json and an empty .jsonl share one content hash; both hold no document, so the
        // quarantine cannot depend on which of them is read first.
        #expect(readAll(try folder.write("empty.json", "")) == [])
        #expect(readAll(try folder.write("empty.json.gz", Gzip.compress([]) ?? [])) == [])
    }

    @Test func jsonFileIsOneDocumentAtLineOne() throws {
        let folder = try TemporaryFolder()
        let text = "{\n  \"signedPayload\": \"x\"\n}\n"
        #expect(readAll(try folder.write("one.json", text)) == [.document(1, text)])
        #expect(readAll(try folder.write("one.json.gz", try gzip(text))) == [.document(1, text)])
    }

    @Test func gzipDetectedByMagicAndMultiMember() throws {
        let folder = try TemporaryFolder()
        let first = try gzip("{\"n\":1}\n{\"n\":2}\n{\"n\":")
        let second = try gzip("3}\n\n{\"n\":4}\n")
        let expected: [ReadItem] = [
            .document(1, #"{"n":1}"#), .document(2, #"{"n":2}"#), .document(3, #"{"n":3}"#), .document(5, #"{"n":4}"#),
        ]
        #expect(readAll(try folder.write("multi.jsonl.gz", first + second)) == expected)
        // Not named .gz, still gzip by its magic bytes.
        #expect(readAll(try folder.write("renamed.jsonl", first + second)) == expected)
    }

    @Test func truncatedGzipReturnsDocumentsBeforeTheBreakThenOneFailure() throws {
        let folder = try TemporaryFolder()
        let lines = (1...2000).map { "{\"n\":\($0),\"pad\":\"\(String(repeating: "x", count: $0 % 97))\"}" }
        let compressed = try gzip(lines.joined(separator: "\n") + "\n")
        let file = try folder.write("cut.jsonl.gz", Array(compressed.prefix(compressed.count / 2)))
        let items = readAll(file)
        let documents = items.dropLast()
        #expect(documents.count > 10)
        for (offset, item) in documents.enumerated() {
            #expect(item == .document(offset + 1, lines[offset]))
        }
        #expect(items.last == .failure(documents.count + 1, .badGzip))
    }

    /// The trailer is checked: a file whose data inflates cleanly but whose CRC-32 or length does not match it is
    /// damaged, and says so after the documents it did deliver.
    @Test func gzipTrailerMismatchIsBadGzip() throws {
        let folder = try TemporaryFolder()
        let text = (1...500).map { "{\"n\":\($0)}" }.joined(separator: "\n") + "\n"
        let good = try gzip(text)
        for (name, offset) in [("crc", good.count - 8), ("size", good.count - 4)] {
            var damaged = good
            damaged[offset] ^= 0x01
            let items = readAll(try folder.write("\(name).jsonl.gz", damaged))
            #expect(items.last.map { if case .failure(_, .badGzip) = $0 { true } else { false } } == true, "\(name)")
        }
        #expect(readAll(try folder.write("good.jsonl.gz", good)).count == 500)
    }

    /// What the `gzip` command writes (a file name and modification time in the header), an empty member between
    /// two others, and bytes after the last member that are not gzip.
    @Test func gzipHeaderFieldsEmptyMembersAndTrailingGarbage() throws {
        let folder = try TemporaryFolder()
        let plain = try folder.write("named.jsonl", "{\"n\":1}\n{\"n\":2}\n")
        let gzipTool = Process()
        gzipTool.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzipTool.arguments = ["-k", "-9", plain.path]
        try gzipTool.run()
        gzipTool.waitUntilExit()
        try #require(gzipTool.terminationStatus == 0)
        let fromTool = try [UInt8](Data(contentsOf: URL(fileURLWithPath: plain.path + ".gz")))
        try #require(fromTool[3] & 0x08 != 0, "gzip -k stores the file name (FNAME)")
        let expected: [ReadItem] = [.document(1, #"{"n":1}"#), .document(2, #"{"n":2}"#)]
        #expect(readAll(try folder.write("copy.jsonl.gz", fromTool)) == expected)

        let empty = Gzip.compress([]) ?? []
        let joined = try gzip("{\"n\":1}\n") + empty + (try gzip("{\"n\":2}\n"))
        #expect(readAll(try folder.write("joined.jsonl.gz", joined)) == expected)

        let trailing = readAll(try folder.write("trailing.jsonl.gz", fromTool + Array("not gzip".utf8)))
        #expect(Array(trailing.prefix(2)) == expected)
        #expect(trailing.last.map { if case .failure(_, .badGzip) = $0 { true } else { false } } == true)
    }

    /// Damaged gzip in many shapes (bytes flipped anywhere, cut at every length) ends every read: either the original
    /// documents, or what came before the damage and then one `bad_gzip` failure. Never a hang, never other documents
    /// without a failure.
    @Test(.timeLimit(.minutes(2))) func damagedGzipAlwaysEndsAndNeverPassesForGood() throws {
        let folder = try TemporaryFolder()
        let lines = (1...60).map { "{\"n\":\($0),\"p\":\"\(String(repeating: "ab", count: $0 % 7))\"}" }
        let original = lines.enumerated().map { ReadItem.document($0.offset + 1, $0.element) }
        let good = try gzip(lines.joined(separator: "\n") + "\n")
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func random(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        func check(_ bytes: [UInt8], _ name: String) throws {
            let items = readAll(try folder.write(name, bytes))
            if case .failure(_, let reason)? = items.last {
                #expect(reason == .badGzip, "\(name)")
            } else {
                #expect(items == original, "\(name) read other documents without a failure")
            }
        }
        for round in 0..<300 {
            var damaged = good
            for _ in 0...random(3) { damaged[random(damaged.count)] ^= UInt8(1 + random(255)) }
            try check(damaged, "flip\(round).jsonl.gz")
        }
        for length in stride(from: 1, to: good.count, by: 3) {
            let items = readAll(try folder.write("cut\(length).jsonl.gz", Array(good.prefix(length))))
            #expect(
                items.last.map { if case .failure(_, .badGzip) = $0 { true } else { false } } == true,
                "cut at \(length)")
        }
    }

    @Test func corruptGzipAndGarbageNamedGz() throws {
        let folder = try TemporaryFolder()
        var corrupt = try gzip((1...3000).map { "{\"a\":\($0 * 7919 % 10007)}" }.joined(separator: "\n"))
        try #require(corrupt.count > 1000)
        for index in (corrupt.count / 2)..<(corrupt.count / 2 + 40) { corrupt[index] ^= 0x5A }
        let items = readAll(try folder.write("bad.jsonl.gz", corrupt))
        #expect(items.last.map { if case .failure(_, .badGzip) = $0 { true } else { false } } == true)
        #expect(items.count >= 1)

        #expect(readAll(try folder.write("garbage.jsonl.gz", "this is not gzip\n")) == [.failure(1, .badGzip)])
        let message = DocumentReader(file: try folder.write("g.json.gz", "{}")).map { $0 }
        if case .failure(_, let failure)? = message.first {
            #expect(failure.message.contains("gzip signature"))
        } else {
            Issue.record("expected a failure, got \(message)")
        }
    }

    @Test func tooLongLineFailsThenReadingRecovers() throws {
        let folder = try TemporaryFolder()
        let long = "{\"x\":\"" + String(repeating: "y", count: 5000) + "\"}"
        let file = try folder.write("long.jsonl", "{\"a\":1}\n\(long)\r\n{\"b\":2}\n\(long)")
        let reader = DocumentReader(file: file, maxDocumentBytes: 1000, chunkSize: 64)
        let items = reader.map { result -> ReadItem in
            switch result {
            case .document(let line, let bytes): .document(line, String(decoding: bytes, as: UTF8.self))
            case .failure(let line, let failure): .failure(line, failure.reason)
            }
        }
        #expect(
            items == [
                .document(1, #"{"a":1}"#), .failure(2, .documentTooLarge), .document(3, #"{"b":2}"#),
                .failure(4, .documentTooLarge),
            ])
        let wholeFile = try folder.write("big.json", long)
        #expect(readAll(wholeFile, maxDocumentBytes: 1000) == [.failure(1, .documentTooLarge)])
    }

    @Test func smallChunksSplitLinesAnywhere() throws {
        let folder = try TemporaryFolder()
        let lines = (0..<300).map { "{\"i\":\($0)}" }
        let text = lines.joined(separator: "\r\n")
        // Also chunks that end exactly at the plain file's end (its whole length, and the largest divisor below it
        // of at least 16 bytes): the read after the last full chunk finds nothing left.
        let length = text.utf8.count
        let divisor = (16..<length).last { length % $0 == 0 } ?? length
        for chunkSize in [16, 17, 31, length, divisor] {
            for file in [
                try folder.write("p\(chunkSize).jsonl", text),
                try folder.write("z\(chunkSize).jsonl.gz", try gzip(text)),
            ] {
                let documents = DocumentReader(file: file, maxDocumentBytes: 1 << 20, chunkSize: chunkSize).compactMap {
                    result -> String? in
                    if case .document(_, let bytes) = result { return String(decoding: bytes, as: UTF8.self) }
                    return nil
                }
                #expect(documents == lines)
            }
        }
    }

    @Test func unreadableFileIsOneFailure() throws {
        let items = readAll(InputFile(path: "/nonexistent/iaplens/x.jsonl", byteCount: 0))
        #expect(items == [.failure(1, .unreadableFile)])
    }
}
