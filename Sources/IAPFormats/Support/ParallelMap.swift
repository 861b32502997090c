import Dispatch
import Foundation

/// Maps items on all cores, keeping the input order in the output: ingest decodes a batch of documents with it,
/// `report` renders its months with it.
public enum ParallelMap {
    /// Transforms `items` on every core a core's worth at a time, handing each result to `consume` in the items'
    /// order before the next group is transformed: memory holds one group's results, not all of them.
    public static func forEach<Input: Sendable, Output: Sendable, Failure: Error>(
        _ items: [Input], _ transform: @Sendable (Input) -> Output, consume: (Output) throws(Failure) -> Void
    ) throws(Failure) {
        let group = max(1, ProcessInfo.processInfo.activeProcessorCount)
        for start in stride(from: 0, to: items.count, by: group) {
            for output in map(Array(items[start..<min(start + group, items.count)]), transform) { try consume(output) }
        }
    }

    public static func map<Input: Sendable, Output: Sendable>(
        _ items: [Input], _ transform: @Sendable (Input) -> Output
    ) -> [Output] {
        if items.count < 2 { return items.map(transform) }
        let results = ResultSlots<Output>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            results.set(index, transform(items[index]))
        }
        return results.values()
    }
}

/// Fixed slots written once each by different threads (distinct indices, so no lock is needed).
/// A raw buffer rather than an array property: concurrent `inout` access to a class's array would
/// trip Swift's exclusivity checks.
private final class ResultSlots<Value>: @unchecked Sendable {
    private let buffer: UnsafeMutablePointer<Value?>
    private let count: Int

    init(count: Int) {
        self.count = count
        buffer = UnsafeMutablePointer<Value?>.allocate(capacity: count)
        buffer.initialize(repeating: nil, count: count)
    }

    deinit {
        buffer.deinitialize(count: count)
        buffer.deallocate()
    }

    func set(_ index: Int, _ value: Value) { buffer[index] = value }

    func values() -> [Value] { (0..<count).compactMap { buffer[$0] } }
}
