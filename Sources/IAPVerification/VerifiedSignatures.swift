import Synchronization

/// The signatures a verifier accepted most recently, so that the same JWS seen again in one run (Apple's retries of
/// a notification, overlapping history pages, a file read twice under two names) costs a look-up instead of a chain
/// validation and a P-256 verify.
///
/// A JWS is taken from here only when it is the same bytes checked at the same time: its signing input (by its
/// SHA-256, which the signature check needs anyway), its signature and the instant its certificates were checked
/// at all equal an entry's. Identical bytes checked against the same roots at the same instant give the same
/// answer, so nothing is trusted that was not verified.
///
/// Bounded, and laid out as a two-way set-associative table: a digest's first word picks a set of two slots, and a
/// new entry replaces the older of the two. Retries arrive close together, so recent entries are what matter, and
/// memory stays flat however large the archive. A dictionary with a first-in-first-out list cost a
/// hash-table insert, a removal and an array write per accepted JWS; this costs two slot compares and one store.
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

        init(words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) { self.words = words }

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

    /// A SHA-256 digest as four words, compared as 4 integers. Its first word picks the set: a digest's bits are
    /// already uniform, so hashing it again would only cost.
    private struct Key: Equatable {
        let a: UInt64, b: UInt64, c: UInt64, d: UInt64

        init(a: UInt64, b: UInt64, c: UInt64, d: UInt64) { (self.a, self.b, self.c, self.d) = (a, b, c, d) }

        init?(_ digest: [UInt8]) {
            guard digest.count == 32 else { return nil }
            (a, b, c, d) = digest.withUnsafeBytes { raw in
                func word(_ index: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
                return (word(0), word(1), word(2), word(3))
            }
        }
    }

    /// One remembered signature; `sequence` 0 marks an empty slot, otherwise it orders insertions (older loses).
    private struct Slot {
        var key: Key
        var entry: Entry
        var sequence: UInt64

        static let empty = Slot(
            key: Key(a: 0, b: 0, c: 0, d: 0), entry: Entry(signature: Words64(words: (0, 0, 0, 0, 0, 0, 0, 0)), atMillis: 0),
            sequence: 0)

        func holds(_ wanted: Key) -> Bool { sequence != 0 && key == wanted }
    }

    private struct State {
        var slots: [Slot]
        var sequence: UInt64 = 0
    }

    /// Sets of two slots; a power of two so a set is picked with a mask.
    private let setMask: Int
    private let state: Mutex<State>

    /// - Parameter capacity: how many signatures are remembered at most (rounded up to a power of two, at least 2).
    init(capacity: Int) {
        var sets = 1
        while sets * 2 < capacity { sets *= 2 }
        setMask = sets - 1
        state = Mutex(State(slots: Array(repeating: .empty, count: sets * 2)))
    }

    /// True when exactly this signing input, signature and instant were accepted before.
    func contains(digest: [UInt8], signature: [UInt8], atMillis: Int64) -> Bool {
        guard let key = Key(digest), let words = Words64(signature) else { return false }
        let wanted = Entry(signature: words, atMillis: atMillis)
        let first = firstSlot(of: key)
        return state.withLock { state in
            for slot in first...first + 1 where state.slots[slot].holds(key) {
                return state.slots[slot].entry == wanted
            }
            return false
        }
    }

    /// Remembers an accepted signature: in the slot that already holds its digest, else in an empty or the older
    /// slot of its set.
    func insert(digest: [UInt8], signature: [UInt8], atMillis: Int64) {
        guard let key = Key(digest), let words = Words64(signature) else { return }
        let entry = Entry(signature: words, atMillis: atMillis)
        let first = firstSlot(of: key)
        state.withLock { state in
            state.sequence += 1
            let target: Int
            if state.slots[first].holds(key) {
                target = first
            } else if state.slots[first + 1].holds(key) {
                target = first + 1
            } else {
                target = state.slots[first + 1].sequence < state.slots[first].sequence ? first + 1 : first
            }
            state.slots[target] = Slot(key: key, entry: entry, sequence: state.sequence)
        }
    }

    private func firstSlot(of key: Key) -> Int { (Int(truncatingIfNeeded: key.a) & setMask) &* 2 }
}
