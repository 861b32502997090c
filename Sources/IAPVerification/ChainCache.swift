import Foundation

/// Validated paths keyed by the exact `x5c` leaf and intermediate strings, so a payload signed with a chain
/// already seen costs a time-window comparison plus one signature check.
///
/// Only successes are cached; a failure is re-derived every time, which keeps the cache trivially correct.
/// Bounded so hostile input (millions of distinct chains) cannot grow memory.
final class ChainCache: @unchecked Sendable {
    /// The exact strings as sent; comparing them is what makes a hit safe without re-parsing.
    struct Key: Hashable, Sendable {
        let leaf: String
        let intermediate: String
    }

    private let lock = NSLock()
    private var entries: [Key: ValidatedPath] = [:]
    /// The entry found last: archives use one chain for long runs, and comparing the strings (the same storage
    /// when the header came from `HeaderCache`) is cheaper than hashing 2 KB of base64 per lookup.
    private var lastHit: (key: Key, path: ValidatedPath)?
    private let capacity: Int

    /// Makes an empty cache holding at most `capacity` chains.
    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// The cached path for a key, if any.
    func path(for key: Key) -> ValidatedPath? {
        lock.lock()
        defer { lock.unlock() }
        if let lastHit, lastHit.key == key { return lastHit.path }
        guard let path = entries[key] else { return nil }
        lastHit = (key, path)
        return path
    }

    /// Stores a path, evicting an arbitrary entry when full (real archives use a handful of chains).
    func store(_ path: ValidatedPath, for key: Key) {
        lock.lock()
        defer { lock.unlock() }
        if entries[key] == nil, entries.count >= capacity {
            let evicted = entries.remove(at: entries.startIndex)
            if lastHit?.key == evicted.key { lastHit = nil }
        }
        entries[key] = path
        if lastHit?.key == key { lastHit = (key, path) }
    }

    /// How many chains are cached (for tests and diagnostics).
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }
}
