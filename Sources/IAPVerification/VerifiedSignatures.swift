import Synchronization

/// The signatures a verifier accepted most recently, so that the same JWS seen again in one run (Apple's retries of
/// a notification, overlapping history pages, a file read twice under two names) costs a look-up instead of a chain
/// validation and a P-256 verify.
///
/// A JWS is taken from here only when it is the same bytes checked at the same time: its signing input (by its
/// SHA-256, which the signature check needs anyway), its signature and the instant its certificates were checked
/// at all equal an entry's. Identical bytes checked against the same roots at the same instant give the same
/// answer, so nothing is trusted that was not verified. Bounded (first in, first out): retries arrive close
/// together, and memory stays flat however large the archive.
final class VerifiedSignatures: Sendable {
    private struct Entry {
        let signature: [UInt8]
        let atMillis: Int64
    }

    /// A SHA-256 digest as four words: hashed and compared as 4 integers, not 32 bytes one by one (the byte-wise
    /// hash showed in the profile of a verified ingest).
    private struct Key: Hashable {
        let a: UInt64, b: UInt64, c: UInt64, d: UInt64

        init(_ digest: [UInt8]) {
            func word(_ start: Int) -> UInt64 {
                var value: UInt64 = 0
                for index in start..<min(start + 8, digest.count) { value = value << 8 | UInt64(digest[index]) }
                return value
            }
            a = word(0)
            b = word(8)
            c = word(16)
            d = word(24)
        }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var order: [Key] = []
        var next = 0
    }

    private let capacity: Int
    private let state: Mutex<State>

    init(capacity: Int) {
        self.capacity = capacity
        state = Mutex(State())
    }

    /// True when exactly this signing input, signature and instant were accepted before.
    func contains(digest: [UInt8], signature: [UInt8], atMillis: Int64) -> Bool {
        let key = Key(digest)
        return state.withLock { state in
            guard let entry = state.entries[key] else { return false }
            return entry.atMillis == atMillis && entry.signature == signature
        }
    }

    /// Remembers an accepted signature, forgetting the oldest one when full.
    func insert(digest: [UInt8], signature: [UInt8], atMillis: Int64) {
        let key = Key(digest)
        state.withLock { state in
            if state.entries[key] != nil {
                state.entries[key] = Entry(signature: signature, atMillis: atMillis)
                return
            }
            if state.order.count < capacity {
                state.order.append(key)
            } else {
                state.entries[state.order[state.next]] = nil
                state.order[state.next] = key
                state.next = (state.next + 1) % capacity
            }
            state.entries[key] = Entry(signature: signature, atMillis: atMillis)
        }
    }
}
