import CFixedKeyECDSA
import COpenSSL
import Testing

/// `iaplens_p256_order_inverse` (the hand-written inverse modulo P-256's order, used by every table check) gives
/// what OpenSSL's `BN_mod_inverse` gives, and refuses what has no inverse.
@Suite("The inverse modulo P-256's order")
struct OrderInverseTests {
    @Test("Equal to BN_mod_inverse for small, large and random values; 0, n and above refused")
    func matchesOpenSSL() throws {
        let order = LeafPublicKeyTests.order
        let orderBN = try #require(BN_bin2bn(order, 32, nil))
        defer { BN_free(orderBN) }
        let context = try #require(BN_CTX_new())
        defer { BN_CTX_free(context) }
        let one = [UInt8](repeating: 0, count: 31) + [1]
        var values: [[UInt8]] = [
            one, [UInt8](repeating: 0, count: 31) + [2], LeafPublicKeyTests.subtract(order, one),
            LeafPublicKeyTests.subtract(order, [UInt8](repeating: 0, count: 31) + [2]),
            [0x80] + [UInt8](repeating: 0, count: 31),
            [UInt8](repeating: 0, count: 16) + [UInt8](repeating: 0xFF, count: 16),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var value = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            value[0] = min(value[0], 0xFE)  // below n
            values.append(value)
        }
        for value in values {
            var inverse = [UInt8](repeating: 0, count: 32)
            #expect(iaplens_p256_order_inverse(value, &inverse) == 1)
            let valueBN = try #require(BN_bin2bn(value, 32, nil))
            let expectedBN = try #require(BN_mod_inverse(nil, valueBN, orderBN, context))
            var expected = [UInt8](repeating: 0, count: 32)
            BN_bn2binpad(expectedBN, &expected, 32)
            BN_free(valueBN)
            BN_free(expectedBN)
            #expect(inverse == expected, "\(value)")
        }
        var ignored = [UInt8](repeating: 0, count: 32)
        for refused in [
            [UInt8](repeating: 0, count: 32), order, [UInt8](repeating: 0xFF, count: 32),
            LeafPublicKeyTests.subtract([UInt8](repeating: 0xFF, count: 32), [UInt8](repeating: 0, count: 31) + [0x10]),
        ] {
            #expect(iaplens_p256_order_inverse(refused, &ignored) == 0)
        }
    }
}
