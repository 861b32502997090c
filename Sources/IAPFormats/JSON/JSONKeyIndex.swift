/// Finds a key's position among an object's keys without hashing every key with Swift's `Hasher`.
///
/// Apple's payloads have 10 to 30 keys and each is looked up about once, so building a `Dictionary` per object
/// (seeded SipHash of every key, then of every lookup) cost more than the lookups it saved. Up to
/// ``dictionaryThreshold`` keys, each key has a 64-bit fingerprint (its length and first and last eight bytes,
/// mixed), kept in an array scanned linearly; a fingerprint match is confirmed by comparing the strings, so
/// collisions cost time, never correctness. Larger (hostile) objects get a dictionary, keeping lookups O(1).
struct JSONKeyIndex: Sendable {
    /// Objects with more keys than this use a dictionary.
    static let dictionaryThreshold = 128

    private var fingerprints: [UInt64] = []
    private var dictionary: [String: Int]?

    /// An index of `keys` (all distinct).
    init(_ keys: [String]) {
        if keys.count > Self.dictionaryThreshold {
            dictionary = Self.dictionary(keys)
        } else {
            fingerprints = keys.map(Self.fingerprint)
        }
    }

    /// The position of `key` in `keys` (the array this index was built from and kept in step with).
    func position(of key: String, in keys: [String]) -> Int? {
        if let dictionary { return dictionary[key] }
        let wanted = Self.fingerprint(key)
        for (position, fingerprint) in fingerprints.enumerated() where fingerprint == wanted && keys[position] == key {
            return position
        }
        return nil
    }

    /// Records that `key` (not yet present) was appended to `keys`, which now includes it.
    mutating func append(_ key: String, in keys: [String]) {
        if dictionary != nil {
            dictionary?[key] = keys.count - 1
        } else if keys.count > Self.dictionaryThreshold {
            dictionary = Self.dictionary(keys)
            fingerprints = []
        } else {
            fingerprints.append(Self.fingerprint(key))
        }
    }

    private static func dictionary(_ keys: [String]) -> [String: Int] {
        var dictionary = [String: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() { dictionary[key] = position }
        return dictionary
    }

    static func fingerprint(_ key: String) -> UInt64 {
        var key = key
        return key.withUTF8 { bytes in
            let count = bytes.count
            var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
            guard let base = UnsafeRawPointer(bytes.baseAddress) else { return hash }
            if count >= 8 {
                hash = (hash ^ base.loadUnaligned(as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
                hash = (hash ^ base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) &* 0xC4CE_B9FE_1A85_EC53
            } else {
                for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            }
            return hash ^ (hash >> 29)
        }
    }
}
