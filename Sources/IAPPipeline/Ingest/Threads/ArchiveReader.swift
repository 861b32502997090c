import Foundation
import IAPFormats

/// Reads every input file in order on a thread of its own: takes its hash (a ``FileHasher`` works ahead), skips
/// content already read, then decompresses and splits it into chunks of documents. It runs ahead of the cores by
/// at most `capacity` events, across file boundaries, so the cores never wait for the next file to be opened.
final class ArchiveReader: Sendable {
    private let events: BoundedQueue<IngestEvent>

    /// - Parameter alreadyRead: content hashes of files complete in the store.
    init(files: [InputFile], alreadyRead: Set<String>, chunkSize: Int, capacity: Int = 2) {
        let events = BoundedQueue<IngestEvent>(capacity: capacity)
        self.events = events
        let thread = Thread {
            Self.produce(files: files, alreadyRead: alreadyRead, chunkSize: max(1, chunkSize), into: events)
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

    private static func produce(files: [InputFile], alreadyRead: Set<String>, chunkSize: Int, into events: BoundedQueue<IngestEvent>) {
        let hasher = FileHasher(files: files)
        defer {
            hasher.cancel()
            events.finish()
        }
        var known = alreadyRead
        for input in files {
            let sha256: String
            switch hasher.next() {
            case .success(let hash)?: sha256 = hash
            case .failure(let error)?:
                guard events.put(.unreadable(input, reason: "\(error)")) else { return }
                continue
            case nil: return
            }
            // Complete in the store, or the same content met earlier in this run under another name.
            guard known.insert(sha256).inserted else {
                guard events.put(.skipped(input)) else { return }
                continue
            }
            let file = SourceFile(path: input.path, sha256: sha256, byteCount: input.byteCount)
            guard events.put(.started(file)) else { return }
            var chunk: [DocumentReadResult] = []
            chunk.reserveCapacity(chunkSize)
            for item in DocumentReader(file: input) {
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
            guard events.put(.finished(file)) else { return }
        }
    }
}
