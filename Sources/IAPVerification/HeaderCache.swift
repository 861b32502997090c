import Foundation

/// Decoded JWS headers keyed by their exact base64url segment. An archive holds a few distinct headers (one per
/// signing chain) repeated on every JWS, each about 3.5 KB of base64 around three certificates; decoding it again
/// (base64 then JSON) cost more than the rest of parsing. A hit needs the very same bytes, so it returns exactly
/// what decoding would; only headers that decoded are stored.
///
/// Bounded (hostile input with endless distinct headers only evicts), and locked: the lookup is a length check
/// and one `memcmp` per entry, far shorter than the verification that follows.
final class HeaderCache: @unchecked Sendable {
    static let shared = HeaderCache(capacity: 16)

    private struct Entry {
        let segment: [UInt8]
        let header: JWSHeader
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private var nextVictim = 0
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        entries.reserveCapacity(self.capacity)
    }

    /// The header decoded earlier from exactly these bytes, if any.
    func header(for segment: UnsafeBufferPointer<UInt8>) -> JWSHeader? {
        guard let base = segment.baseAddress else { return nil }
        lock.lock()
        defer { lock.unlock() }
        for entry in entries where entry.segment.count == segment.count {
            let same = entry.segment.withUnsafeBufferPointer { stored in
                stored.baseAddress.map { memcmp($0, base, segment.count) == 0 } ?? false
            }
            if same { return entry.header }
        }
        return nil
    }

    /// Remembers a header decoded from `segment`, replacing the oldest entry when full.
    func store(_ header: JWSHeader, for segment: UnsafeBufferPointer<UInt8>) {
        let entry = Entry(segment: Array(segment), header: header)
        lock.lock()
        defer { lock.unlock() }
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[nextVictim] = entry
            nextVictim = (nextVictim + 1) % capacity
        }
    }
}
