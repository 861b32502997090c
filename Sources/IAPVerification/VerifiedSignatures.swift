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

    private struct State {
        var entries: [[UInt8]: Entry] = [:]
        var order: [[UInt8]] = []
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
        state.withLock { state in
            guard let entry = state.entries[digest] else { return false }
            return entry.atMillis == atMillis && entry.signature == signature
        }
    }

    /// Remembers an accepted signature, forgetting the oldest one when full.
    func insert(digest: [UInt8], signature: [UInt8], atMillis: Int64) {
        state.withLock { state in
            if state.entries[digest] != nil {
                state.entries[digest] = Entry(signature: signature, atMillis: atMillis)
                return
            }
            if state.order.count < capacity {
                state.order.append(digest)
            } else {
                state.entries[state.order[state.next]] = nil
                state.order[state.next] = digest
                state.next = (state.next + 1) % capacity
            }
            state.entries[digest] = Entry(signature: signature, atMillis: atMillis)
        }
    }
}
