import Testing

@testable import IAPVerification

/// The table behind ``VerifiedSignatures``: two slots per set, the older one replaced, and only an exact match
/// (digest, signature and instant) found.
@Suite struct VerifiedSignaturesTableTests {
    /// A digest whose first word (the set) and last byte (the identity) are chosen.
    private func digest(set: UInt8, id: UInt8) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes[0] = set
        bytes[31] = id
        return bytes
    }

    private let signature = [UInt8](repeating: 7, count: 64)

    @Test func aSetKeepsItsTwoNewestEntries() {
        let table = VerifiedSignatures(capacity: 4)  // two sets of two
        table.insert(digest: digest(set: 0, id: 1), signature: signature, atMillis: 5)
        table.insert(digest: digest(set: 0, id: 2), signature: signature, atMillis: 5)
        #expect(table.contains(digest: digest(set: 0, id: 1), signature: signature, atMillis: 5))
        #expect(table.contains(digest: digest(set: 0, id: 2), signature: signature, atMillis: 5))
        // Another set does not disturb this one.
        table.insert(digest: digest(set: 1, id: 3), signature: signature, atMillis: 5)
        // A third digest in set 0 replaces the oldest (id 1), whichever slot it sits in.
        table.insert(digest: digest(set: 0, id: 4), signature: signature, atMillis: 5)
        #expect(!table.contains(digest: digest(set: 0, id: 1), signature: signature, atMillis: 5))
        #expect(table.contains(digest: digest(set: 0, id: 2), signature: signature, atMillis: 5))
        #expect(table.contains(digest: digest(set: 0, id: 4), signature: signature, atMillis: 5))
        #expect(table.contains(digest: digest(set: 1, id: 3), signature: signature, atMillis: 5))
        // Inserting id 2 again refreshes it in place: id 4 is now the older and goes next.
        table.insert(digest: digest(set: 0, id: 2), signature: signature, atMillis: 5)
        table.insert(digest: digest(set: 0, id: 5), signature: signature, atMillis: 5)
        #expect(table.contains(digest: digest(set: 0, id: 2), signature: signature, atMillis: 5))
        #expect(!table.contains(digest: digest(set: 0, id: 4), signature: signature, atMillis: 5))
    }

    @Test func onlyTheSameSignatureAtTheSameInstantMatches() {
        let table = VerifiedSignatures(capacity: 2)
        #expect(!table.contains(digest: digest(set: 0, id: 0), signature: signature, atMillis: 0))  // empty slots
        table.insert(digest: digest(set: 0, id: 1), signature: signature, atMillis: 5)
        #expect(!table.contains(digest: digest(set: 0, id: 1), signature: signature, atMillis: 6))
        var other = signature
        other[63] = 8
        #expect(!table.contains(digest: digest(set: 0, id: 1), signature: other, atMillis: 5))
        #expect(!table.contains(digest: digest(set: 0, id: 9), signature: signature, atMillis: 5))
        // Wrong lengths are never remembered nor found.
        table.insert(digest: [1, 2, 3], signature: signature, atMillis: 5)
        #expect(!table.contains(digest: [1, 2, 3], signature: signature, atMillis: 5))
    }
}
