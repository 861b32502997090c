/// Streams the documents of one input file with flat memory.
///
/// - gzip is detected by its magic bytes (`1f 8b`), whatever the name; multi-member gzip is read through.
///   A `.gz` name on non-gzip data is a ``FormatFailureReason/badGzip`` failure.
/// - `.jsonl` / `.ndjson` (and any other name except `.json`): one document per line; blank lines are skipped,
///   a trailing `\r` is dropped, and line numbers count every line from 1.
/// - `.json`: the whole file is one document, reported at line 1 (an empty file holds none, like an empty `.jsonl`).
/// - A UTF-8 byte-order mark at the very start of the content is dropped.
/// - A line longer than `maxDocumentBytes` yields a ``FormatFailureReason/documentTooLarge`` failure for that
///   line without being buffered, and reading continues at the next line.
/// - Corrupt or truncated gzip: the documents before the damage come first, then one ``FormatFailureReason/badGzip``
///   failure at the line where it broke, then the iteration ends.
public struct DocumentReader: Sequence, Sendable {
    /// Default per-document limit: 16 MiB. The largest documents Apple sends are a Notification History page (up to
    /// 20 signed notifications of about 10 KB: a few hundred KB) and a V1 body whose base64 `latest_receipt` carries
    /// a long subscriber's whole history (a few MB); 16 MiB is several times either, and keeps three documents in
    /// flight (reader, queue, parse) inside the 200 MB ingest aims at.
    public static let defaultMaxDocumentBytes = 16 << 20

    /// The file to read.
    public let file: InputFile
    /// The longest accepted document, in (decompressed) bytes.
    public let maxDocumentBytes: Int
    /// Bytes of the file read at most (nil: to its end).
    public var byteLimit: Int64?
    let chunkSize: Int

    /// Creates a reader; nothing is opened until iteration starts.
    /// - Parameters:
    ///   - file: The file to read.
    ///   - maxDocumentBytes: The longest accepted document, in decompressed bytes.
    public init(file: InputFile, maxDocumentBytes: Int = DocumentReader.defaultMaxDocumentBytes) {
        self.init(file: file, maxDocumentBytes: maxDocumentBytes, chunkSize: ChunkSource.defaultChunkSize)
    }

    init(file: InputFile, maxDocumentBytes: Int, chunkSize: Int) {
        self.file = file
        self.maxDocumentBytes = maxDocumentBytes
        self.chunkSize = chunkSize
    }

    /// Opens the file and starts reading. Each iterator reads the file independently.
    public func makeIterator() -> Iterator {
        makeIterator(digest: nil)
    }

    /// An iterator whose file bytes also go through `digest`, so the caller can check that what was read is what
    /// was hashed.
    public func makeIterator(digest: StreamingDigest?) -> Iterator {
        Iterator(
            source: ChunkSource(file: file, chunkSize: chunkSize, limit: byteLimit, digest: digest),
            layout: file.layout,
            maxDocumentBytes: maxDocumentBytes
        )
    }

    /// Reads documents one at a time; the file is closed when the iterator is released.
    ///
    /// Not `Sendable`: it owns an open file and decompression state and is meant to be used by one task.
    public struct Iterator: IteratorProtocol {
        private let source: ChunkSource
        private var splitter: DocumentSplitter

        init(source: ChunkSource, layout: InputLayout, maxDocumentBytes: Int) {
            self.source = source
            self.splitter = DocumentSplitter(layout: layout, maxDocumentBytes: maxDocumentBytes)
        }

        /// After the last document: reads the bytes reading did not need (after gzip damage), so the digest
        /// covers the whole file.
        public func drain() {
            source.drain()
        }

        /// The next document or failure, or `nil` at the end of the file.
        public mutating func next() -> DocumentReadResult? {
            while true {
                if let result = splitter.nextResult() { return result }
                if splitter.isFinished { return nil }
                switch source.next() {
                case .data(let bytes): splitter.feed(bytes)
                case .end: splitter.finish(failure: nil)
                case .failure(let failure): splitter.finish(failure: failure)
                }
            }
        }
    }
}
