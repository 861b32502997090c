import Foundation

/// A first-in, first-out queue between two threads that holds at most `capacity` elements, and, when given, at
/// most `byteCapacity` bytes of them (an element larger than that still passes alone): the producer waits while it
/// is full, so a fast stage can never run ahead of a slow one by more than that (flat memory, whatever the
/// documents' sizes).
///
/// The producer calls ``put(_:)`` then ``finish()``; the consumer calls ``take()`` until nil. Either side may
/// ``cancel()``: waiting ends on both sides and nothing more is delivered.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // @unchecked: every mutable property is guarded by `condition`.
    private let condition = NSCondition()
    private var elements: [(element: Element, bytes: Int)] = []
    private var queuedBytes = 0
    private var finished = false
    private var cancelled = false
    let capacity: Int
    let byteCapacity: Int?

    init(capacity: Int, byteCapacity: Int? = nil) {
        self.capacity = max(1, capacity)
        self.byteCapacity = byteCapacity
    }

    /// Appends an element of `bytes` bytes, waiting while the queue is full. False once the queue is cancelled.
    @discardableResult
    func put(_ element: Element, bytes: Int = 0) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while isFull(adding: bytes) && !cancelled { condition.wait() }
        if cancelled { return false }
        elements.append((element, bytes))
        queuedBytes += bytes
        condition.broadcast()
        return true
    }

    private func isFull(adding bytes: Int) -> Bool {
        if elements.count >= capacity { return true }
        guard let byteCapacity, !elements.isEmpty else { return false }
        return queuedBytes + bytes > byteCapacity
    }

    /// No more elements will be put; ``take()`` returns nil once the queue is empty.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The oldest element, waiting until there is one; nil at the end or once cancelled.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while elements.isEmpty && !finished && !cancelled { condition.wait() }
        if cancelled || elements.isEmpty { return nil }
        // A consumed element is dropped at once (capacity is small, so removing the first is cheap).
        let first = elements.removeFirst()
        queuedBytes -= first.bytes
        condition.broadcast()
        return first.element
    }

    /// Stops both sides: waiting ends, queued elements are dropped, nothing more is delivered.
    func cancel() {
        condition.lock()
        cancelled = true
        elements.removeAll()
        queuedBytes = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Elements waiting right now (never more than the capacity).
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return elements.count
    }
}
