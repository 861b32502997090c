import Foundation
import IAPFormats

/// Reads (and decompresses) a file on a thread of its own, a few chunks of lines ahead of the workers, so the
/// cores never wait for the reader between chunks. At most `capacity` chunks wait, so memory stays flat.
///
/// The consumer calls ``next()`` until it returns nil, or ``cancel()`` if it stops early.
final class PrefetchingReader: @unchecked Sendable {
    // @unchecked: every mutable property is guarded by `condition`.
    typealias Chunk = [DocumentReadResult]

    private let condition = NSCondition()
    // At most `capacity` chunks, oldest first. A consumed chunk is removed at once: keeping consumed
    // chunks until the consumer caught up (as an index into a growing array did) held a whole file in
    // memory whenever verification was slower than reading.
    private var ready: [Chunk] = []
    private var finished = false
    private var cancelled = false
    private let capacity: Int

    init(file: InputFile, chunkSize: Int, capacity: Int = 2) {
        self.capacity = max(1, capacity)
        let thread = Thread { [self] in produce(file: file, chunkSize: max(1, chunkSize)) }
        thread.name = "iaplens.reader"
        thread.start()
    }

    /// The next chunk in file order (documents and read failures as the reader found them), or nil at the end.
    func next() -> Chunk? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !finished { condition.wait() }
        guard !ready.isEmpty else { return nil }
        let chunk = ready.removeFirst()
        condition.broadcast()
        return chunk
    }

    /// Stops the reader thread at its next chunk; nothing more is delivered.
    /// Chunks read ahead and not yet consumed (never more than the capacity).
    var bufferedChunks: Int {
        condition.lock()
        defer { condition.unlock() }
        return ready.count
    }

    func cancel() {
        condition.lock()
        cancelled = true
        ready.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func produce(file: InputFile, chunkSize: Int) {
        var chunk: Chunk = []
        chunk.reserveCapacity(chunkSize)
        for item in DocumentReader(file: file) {
            chunk.append(item)
            if chunk.count >= chunkSize {
                guard hand(chunk) else { return }
                chunk = []
                chunk.reserveCapacity(chunkSize)
            }
        }
        if !chunk.isEmpty { _ = hand(chunk) }
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Queues a chunk, waiting while `capacity` chunks are queued; false once cancelled.
    private func hand(_ chunk: Chunk) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        ready.append(chunk)
        condition.broadcast()
        return true
    }
}
