import Foundation
import IAPFormats

/// Decoded JWS headers keyed by their exact base64url segment. An archive holds a few distinct headers (one per
/// signing chain) repeated on every JWS, each about 3 KB of base64 around three certificates; decoding it again
/// (base64 then JSON) cost more than the rest of parsing, and hashing it again for the signature check was 40 %
/// of all the SHA-256 ingest did. An entry keeps the decoded header and the SHA-256 state after `segment.`, the
/// start of every signing input that uses it. A hit needs the very same bytes, so it returns exactly what
/// decoding and hashing would; only headers that decoded are stored.
///
/// Bounded (hostile input with endless distinct headers only evicts), and locked: the lookup is a length check
/// and one `memcmp` per entry, far shorter than the verification that follows.
final class HeaderCache: @unchecked Sendable {
    static let shared = HeaderCache(capacity: 16)

    /// A header and the SHA-256 state after its segment and the dot that follows it.
    struct Entry {
        let segment: [UInt8]
        let header: JWSHeader
        let signingPrefix: MemoryDigest.Prefix

        init(segment: UnsafeBufferPointer<UInt8>, header: JWSHeader) {
            self.segment = Array(segment)
            self.header = header
            signingPrefix = withUnsafeBytes(of: UInt8(ascii: ".")) { dot in
                MemoryDigest.Prefix(UnsafeRawBufferPointer(segment), dot)
            }
        }
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private var nextVictim = 0
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        entries.reserveCapacity(self.capacity)
    }

    /// The entry made earlier from exactly these bytes, if any.
    func entry(for segment: UnsafeBufferPointer<UInt8>) -> Entry? {
        guard let base = segment.baseAddress else { return nil }
        lock.lock()
        defer { lock.unlock() }
        // By index: `for entry in entries` copied every entry it looked at (a retain and a release of its arrays and
        // strings, which every processing thread shares).
        for index in entries.indices where entries[index].segment.count == segment.count {
            let same = entries[index].segment.withUnsafeBufferPointer { stored in
                stored.baseAddress.map { memcmp($0, base, segment.count) == 0 } ?? false
            }
            if same { return entries[index] }
        }
        return nil
    }

    /// Remembers an entry, replacing the oldest one when full.
    func store(_ entry: Entry) {
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
