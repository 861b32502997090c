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
        let events = BoundedQueue<IngestEvent>(capacity: capacity)
        self.events = events
        let earlier = Dictionary(grouping: registered, by: \.path).mapValues { $0.sorted { $0.byteCount < $1.byteCount } }
        let thread = Thread {
            Self.produce(files: files, alreadyRead: alreadyRead, earlier: earlier, chunkSize: max(1, chunkSize), into: events)
        }
        thread.name = "iaplens.reader"
        thread.start()
    }

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
            chunk.reserveCapacity(chunkSize)
            // Exactly the bytes that were hashed, checked again as they are read: bytes appended since are left for
            // the next run, and a file rewritten in between is not recorded under a hash that does not cover it.
            var reader = DocumentReader(file: input)
            reader.byteLimit = hashed.byteCount
            let digest = StreamingDigest()
            var iterator = reader.makeIterator(digest: digest)
            while let item = iterator.next() {
                chunk.append(item)
                if chunk.count >= chunkSize {
                    guard events.put(.read(file, chunk)) else { return }
                    chunk = []
                    chunk.reserveCapacity(chunkSize)
                }
            }
            if !chunk.isEmpty {
                guard events.put(.read(file, chunk)) else { return }
            }
            iterator.drain()
            let unchanged = digest.hex == hashed.sha256 && digest.byteCount == hashed.byteCount
            guard events.put(unchanged ? .finished(file) : .changed(file)) else { return }
        }
    }
}
