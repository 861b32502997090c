/// A 64-bit digest of a two-part text key, for the writer's bookkeeping of the keys it writes: counting a write's
/// versions per transaction (``TransactionKey``) and the bulk load's filter of keys seen (``KeyFilter``).
///
/// Why not `Hasher`: it hashes each `String` through SipHash with the Unicode checks of `String.hash(into:)`, about
/// 1,200 instructions per key, and the writer digests two or three keys per document; this is FNV-1a over the UTF-8
/// of both parts, with a separator no UTF-8 holds, and a final mix (MurmurHash3's) so that the low bits depend on
/// every byte too. With it, and single versions bound in place, the writer went from 88,047 to 83,139 instructions
/// per document (`scripts/writer-instructions.sh`; Documentation/Performance.md, "Retains, copies and purges").
///
/// Not seeded: an archive built so that its keys share digests would only make the writer take its general paths
/// (several versions of one transaction, a key checked when the unique index is built again), never store anything
/// different.
enum KeyDigest {
    static func of(_ first: String, _ second: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        add(first, to: &hash)
        // 0xFF never occurs in UTF-8, so ("ab", "c") and ("a", "bc") differ.
        hash = (hash ^ 0xFF) &* prime
        add(second, to: &hash)
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash &*= 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        return hash
    }

    private static let prime: UInt64 = 0x0000_0100_0000_01B3

    private static func add(_ text: String, to hash: inout UInt64) {
        var value = hash
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { value = (value ^ UInt64(byte)) &* prime }
        }
        if done == nil {
            for byte in text.utf8 { value = (value ^ UInt64(byte)) &* prime }
        }
        hash = value
    }
}
