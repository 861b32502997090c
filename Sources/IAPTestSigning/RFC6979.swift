/// Deterministic ECDSA nonces per RFC 6979 §3.2, so a fixed seed yields byte-identical signatures.
///
/// Works on fixed-width big-endian byte strings; `order` is the curve order q, `privateKey` is x in
/// `ceil(qlen/8)` bytes, and `digest` is h1 = H(m). The HMAC uses the same hash as the message digest.
enum RFC6979 {
    /// The first nonce k of the RFC 6979 sequence (the one ECDSA signing uses), as `order.count` bytes.
    static func nonce(privateKey: [UInt8], digest: [UInt8], order: [UInt8], hash: Digest) -> [UInt8] {
        let qlen = bitLength(order)
        let rlen = order.count
        let x = leftPad(privateKey, to: rlen)
        // bits2octets(h1): bits2int, then one conditional subtraction since z1 < 2^qlen < 2q.
        var z = bits2int(digest, qlen: qlen, rlen: rlen)
        if compare(z, order) >= 0 { z = subtract(z, order) }
        var v = [UInt8](repeating: 0x01, count: hash.length)
        var k = [UInt8](repeating: 0x00, count: hash.length)
        k = hash.hmac(key: k, v, [0x00], x, z)
        v = hash.hmac(key: k, v)
        k = hash.hmac(key: k, v, [0x01], x, z)
        v = hash.hmac(key: k, v)
        while true {
            var t: [UInt8] = []
            while t.count * 8 < qlen {
                v = hash.hmac(key: k, v)
                t += v
            }
            let candidate = bits2int(t, qlen: qlen, rlen: rlen)
            if candidate.contains(where: { $0 != 0 }), compare(candidate, order) < 0 { return candidate }
            k = hash.hmac(key: k, v, [0x00])
            v = hash.hmac(key: k, v)
        }
    }

    /// RFC 6979 §2.3.2: the leftmost `qlen` bits of `bytes` as an integer, written in `rlen` bytes.
    static func bits2int(_ bytes: [UInt8], qlen: Int, rlen: Int) -> [UInt8] {
        var value = bytes
        let excess = bytes.count * 8 - qlen
        if excess > 0 { value = shiftRight(value, bits: excess) }
        if value.count > rlen { value = Array(value.suffix(rlen)) }
        return leftPad(value, to: rlen)
    }

    static func bitLength(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.count - first) * 8 - bytes[first].leadingZeroBitCount
    }

    private static func shiftRight(_ bytes: [UInt8], bits: Int) -> [UInt8] {
        let byteShift = bits / 8
        let bitShift = bits % 8
        var kept = Array(bytes.dropLast(byteShift))
        guard bitShift > 0 else { return kept }
        var carry: UInt8 = 0
        for index in kept.indices {
            let byte = kept[index]
            kept[index] = (byte >> UInt8(bitShift)) | carry
            carry = byte << UInt8(8 - bitShift)
        }
        return kept
    }

    private static func leftPad(_ bytes: [UInt8], to count: Int) -> [UInt8] {
        bytes.count >= count ? bytes : [UInt8](repeating: 0, count: count - bytes.count) + bytes
    }

    /// Compares equal-length big-endian integers.
    private static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        for (left, right) in zip(lhs, rhs) where left != right { return left < right ? -1 : 1 }
        return 0
    }

    /// `lhs - rhs` for equal-length big-endian integers with `lhs >= rhs`.
    private static func subtract(_ lhs: [UInt8], _ rhs: [UInt8]) -> [UInt8] {
        var result = lhs
        var borrow = 0
        for index in stride(from: lhs.count - 1, through: 0, by: -1) {
            var difference = Int(lhs[index]) - Int(rhs[index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            result[index] = UInt8(difference)
        }
        return result
    }
}
