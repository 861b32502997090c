import Foundation

/// A first-in, first-out queue between two threads that holds at most `capacity` elements: the producer
/// waits while it is full, so a fast stage can never run ahead of a slow one by more than that (flat memory).
///
/// The producer calls ``put(_:)`` then ``finish()``; the consumer calls ``take()`` until nil. Either side may
/// ``cancel()``: waiting ends on both sides and nothing more is delivered.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // @unchecked: every mutable property is guarded by `condition`.
    private let condition = NSCondition()
    private var elements: [Element] = []
    private var finished = false
    private var cancelled = false
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Appends an element, waiting while the queue is full. False once the queue is cancelled.
    @discardableResult
    func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while elements.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        elements.append(element)
        condition.broadcast()
        return true
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
        let element = elements.removeFirst()
        condition.broadcast()
        return element
    }

    /// Stops both sides: waiting ends, queued elements are dropped, nothing more is delivered.
    func cancel() {
        condition.lock()
        cancelled = true
        elements.removeAll()
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
