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
    /// Everything but the digest, inline: no array per entry to allocate, retain or compare element by element.
    private struct Entry: Equatable {
        let signature: Words64
        let atMillis: Int64
    }

    /// A raw ES256 signature (`r‖s`, 64 bytes) as eight words. Only 64-byte signatures verify, so only they are
    /// remembered.
    private struct Words64: Equatable {
        let words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

        init?(_ bytes: [UInt8]) {
            guard bytes.count == 64 else { return nil }
            words = bytes.withUnsafeBytes { raw in
                func word(_ index: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
                return (word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7))
            }
        }

        static func == (lhs: Words64, rhs: Words64) -> Bool {
            let (a, b) = (lhs.words, rhs.words)
            return (a.0 ^ b.0) | (a.1 ^ b.1) | (a.2 ^ b.2) | (a.3 ^ b.3)
                | (a.4 ^ b.4) | (a.5 ^ b.5) | (a.6 ^ b.6) | (a.7 ^ b.7) == 0
        }
    }

    /// A SHA-256 digest as four words, compared as 4 integers. Hashed by its first word alone: a digest's bits are
    /// already uniform, so hashing all 32 bytes again only costs (the dictionary look-up showed in the profile).
    private struct Key: Hashable {
        let a: UInt64, b: UInt64, c: UInt64, d: UInt64

        init?(_ digest: [UInt8]) {
            guard digest.count == 32 else { return nil }
            (a, b, c, d) = digest.withUnsafeBytes { raw in
                func word(_ index: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
                return (word(0), word(1), word(2), word(3))
            }
        }

        func hash(into hasher: inout Hasher) { hasher.combine(a) }
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
        guard let key = Key(digest), let words = Words64(signature) else { return false }
        let wanted = Entry(signature: words, atMillis: atMillis)
        return state.withLock { state in state.entries[key] == wanted }
    }

    /// Remembers an accepted signature, forgetting the oldest one when full.
    func insert(digest: [UInt8], signature: [UInt8], atMillis: Int64) {
        guard let key = Key(digest), let words = Words64(signature) else { return }
        let entry = Entry(signature: words, atMillis: atMillis)
        state.withLock { state in
            if state.entries[key] != nil {
                state.entries[key] = entry
                return
            }
            if state.order.count < capacity {
                state.order.append(key)
            } else {
                state.entries[state.order[state.next]] = nil
                state.order[state.next] = key
                state.next = (state.next + 1) % capacity
            }
            state.entries[key] = entry
        }
    }
}
