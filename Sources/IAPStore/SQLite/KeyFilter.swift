/// A Bloom filter over text keys: `insert` says whether a key may have been inserted before. "No" is certain;
/// "maybe" is wrong for a small share of new keys (about 0.4 % after a million keys in the default 2 MB), so a
/// "maybe" only ever marks a key for a closer look.
///
/// Fixed size: its memory does not grow with the load, which keeps ingest's peak flat.
struct KeyFilter {
    private var words: [UInt64]
    private let mask: UInt64

    /// - Parameter bitCountLog2: the filter holds 2^bitCountLog2 bits (24: 2 MB).
    init(bitCountLog2: Int = 24) {
        words = [UInt64](repeating: 0, count: (1 << bitCountLog2) / 64)
        mask = (1 << UInt64(bitCountLog2)) - 1
    }

    /// Adds the key; true when it may have been added before (every one of its bits was already set).
    mutating func insert(_ first: String, _ second: String) -> Bool {
        let hash = KeyDigest.of(first, second)
        // Three bit positions from one 64-bit hash (double hashing), enough for the expected fill.
        let first = hash
        let step = (hash >> 32) | 1
        var wasPresent = true
        for probe in 0..<UInt64(3) {
            let bit = (first &+ probe &* step) & mask
            let index = Int(bit >> 6)
            let flag = UInt64(1) << (bit & 63)
            if words[index] & flag == 0 {
                wasPresent = false
                words[index] |= flag
            }
        }
        return wasPresent
    }
}
