import Foundation
import IAPFormats
import IAPStore

/// Reads every input file in order on a thread of its own: takes its hash (a ``FileHasher`` works ahead), skips
/// content already read, then decompresses and splits it into chunks of documents. It runs ahead of the cores by
/// at most `capacity` events, across file boundaries, so the cores never wait for the next file to be opened.
final class ArchiveReader: Sendable {
    private let events: BoundedQueue<IngestEvent>

    /// - Parameters:
    ///   - alreadyRead: content hashes of files complete in the store.
    ///   - registered: every file the store has registered (earlier states of grown files).
    init(
        files: [InputFile], alreadyRead: Set<String>, registered: [FileRegistration] = [], chunkSize: Int,
        capacity: Int = 2
    ) {
        let events = BoundedQueue<IngestEvent>(capacity: capacity, byteCapacity: Self.chunkByteLimit * capacity)
        self.events = events
        let earlier = Dictionary(grouping: registered, by: \.path).mapValues {
            $0.sorted { $0.byteCount < $1.byteCount }
        }
        PipelineThread.start(name: "iaplens.reader") {
            Self.produce(
                files: files, alreadyRead: alreadyRead, earlier: earlier, chunkSize: max(1, chunkSize), into: events)
        }
    }

    /// Document bytes per chunk at most (one document larger than this is a chunk of its own). The queue holds at
    /// most twice this (or one larger chunk alone), so the reader holds about 12 MB, or two documents at the
    /// per-document limit (one queued, one being read).
    static let chunkByteLimit = 4 << 20

    /// The next event in input order, or nil at the end.
    func next() -> IngestEvent? { events.take() }

    /// Stops the reader at its next event.
    func cancel() { events.cancel() }

    /// Events read ahead and not yet consumed (never more than the capacity).
    var bufferedEvents: Int { events.count }

    private static func produce(
        files: [InputFile], alreadyRead: Set<String>, earlier: [String: [FileRegistration]], chunkSize: Int,
        into events: BoundedQueue<IngestEvent>
    ) {
        let hasher = FileHasher(files: files, earlier: earlier)
        defer {
            hasher.cancel()
            events.finish()
        }
        var known = alreadyRead
        for input in files {
            let hashed: FileHasher.Hashed
            switch hasher.next() {
            case .success(let hash)?: hashed = hash
            case .failure(let error)?:
                guard events.put(.unreadable(input, reason: "\(error)")) else { return }
                continue
            case nil: return
            }
            // Complete in the store, or the same content met earlier in this run under another name.
            guard known.insert(hashed.sha256).inserted else {
                guard events.put(.skipped(input)) else { return }
                continue
            }
            let file = SourceFile(
                path: input.path, sha256: hashed.sha256, byteCount: hashed.byteCount, continues: hashed.continues)
            guard events.put(.started(file)) else { return }
            var chunk: [DocumentReadResult] = []
            var chunkBytes = 0
            chunk.reserveCapacity(chunkSize)
            // Exactly the bytes that were hashed, hashed again as they are read: bytes appended since are left for
            // the next run, and a file rewritten in between is not recorded under a hash that does not cover it.
            var reader = DocumentReader(file: input)
            reader.byteLimit = hashed.byteCount
            let digest = StreamingDigest()
            var iterator = reader.makeIterator(digest: digest)
            while let item = iterator.next() {
                chunk.append(item)
                if case .document(_, let bytes) = item { chunkBytes += bytes.count }
                // Bounded by bytes as well as lines: 256 lines of a megabyte each were 256 MB in one chunk.
                if chunk.count >= chunkSize || chunkBytes >= Self.chunkByteLimit {
                    guard events.put(.read(file, chunk), bytes: chunkBytes) else { return }
                    chunk = []
                    chunkBytes = 0
                    chunk.reserveCapacity(chunkSize)
                }
            }
            if !chunk.isEmpty {
                guard events.put(.read(file, chunk), bytes: chunkBytes) else { return }
            }
            iterator.drain()
            let unchanged = digest.hex == hashed.sha256 && digest.byteCount == hashed.byteCount
            guard events.put(unchanged ? .finished(file) : .changed(file)) else { return }
        }
    }
}
