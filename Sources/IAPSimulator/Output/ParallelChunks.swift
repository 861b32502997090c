import Foundation

/// Builds chunks on `workers` threads and hands them to `consume` strictly in chunk order.
///
/// While the caller writes one batch, the workers already build the next, so signing (the cost)
/// keeps both cores busy; at most two batches are in memory.
struct ParallelChunks {
    let builder: ChunkBuilder
    let workers: Int

    /// Results of one batch, filled by the workers.
    private final class Batch: @unchecked Sendable {
        // Guarded by `lock`; each slot is written once by one worker, read after the batch completes.
        private let lock = NSLock()
        private var slots: [Result<ChunkOutput, any Error>?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ result: Result<ChunkOutput, any Error>) {
            lock.lock()
            slots[index] = result
            lock.unlock()
        }

        func take() -> [Result<ChunkOutput, any Error>?] {
            lock.lock()
            defer { lock.unlock() }
            let taken = slots
            slots = []
            return taken
        }
    }

    func run(_ consume: (ChunkOutput) throws -> Void) throws {
        let total = builder.chunkCount
        let batchSize = max(1, workers * 4)
        let builder = self.builder
        let workers = self.workers
        func start(_ first: Int) -> (Batch, DispatchGroup) {
            let count = min(batchSize, total - first)
            let batch = Batch(count: count)
            let group = DispatchGroup()
            for worker in 0..<min(workers, count) {
                DispatchQueue.global().async(group: group) {
                    // Worker w takes chunks w, w + workers, …: fixed assignment, so no shared counter.
                    var i = worker
                    while i < count {
                        batch.set(i, Result { try builder.build(chunk: first + i) })
                        i += workers
                    }
                }
            }
            return (batch, group)
        }
        var first = 0
        var current = start(0)
        while first < total {
            current.1.wait()
            let results = current.0.take()
            let next = first + results.count
            if next < total { current = start(next) }
            for result in results {
                guard let result else { continue }
                try consume(try result.get())
            }
            first = next
        }
    }
}
