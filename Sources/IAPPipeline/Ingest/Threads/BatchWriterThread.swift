import Dispatch
import Foundation
import IAPStore

/// Writes batches on a thread of its own while the workers verify the next ones, in submission order.
/// At most `capacity` batches are queued or being written, so memory stays flat however large the archive.
/// One is enough: under verification the writer keeps up, and under --no-verify it is the bound anyway, so a
/// second queued batch only held 8 MB more (100k --no-verify: 4.6 s either way, peak 123 -> 114 MB).
final class BatchWriterThread: @unchecked Sendable {
    // @unchecked: `failure` is guarded by `lock`; everything else is immutable or a GCD object.
    private let writer: any DocumentWriter
    private let queue = DispatchQueue(label: "iaplens.store-writer")
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var failure: (any Error)?

    init(writer: any DocumentWriter, capacity: Int = 1) {
        self.writer = writer
        self.slots = DispatchSemaphore(value: capacity)
    }

    /// Queues batches to be written together in one transaction (``DocumentWriter/write(_:)``); blocks
    /// while `capacity` writes are already queued or being written. Throws the first write error.
    func submit(_ batches: [DocumentBatch]) throws {
        try rethrowFailure()
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard currentFailure() == nil else { return }
            do {
                try writer.write(batches)
                // The rows were allocated on the worker threads and are freed here (see the method for why glibc is
                // trimmed after every write and jemalloc is left to its own decay).
                MemoryRelease.returnFreedMemoryAfterWrite()
            } catch {
                lock.withLock { failure = failure ?? error }
            }
        }
    }

    /// Waits until every queued batch is written; throws the first write error.
    func finish() throws {
        queue.sync {}
        try rethrowFailure()
    }

    private func currentFailure() -> (any Error)? { lock.withLock { failure } }

    private func rethrowFailure() throws {
        if let failure = currentFailure() { throw failure }
    }
}
