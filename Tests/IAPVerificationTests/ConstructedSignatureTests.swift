import COpenSSL
import Testing

@testable import IAPVerification

/// The two rare branches of the table path's last step (`fixed_key_ecdsa.c`, FIPS 186-4 §6.4.2 steps 7-8), which
/// random signatures reach with probability about 2⁻¹²⁸, built algebraically and run through both paths.
///
/// A signature is valid when x(R) mod n = r, for R = u1·G + u2·Q. P-256's prime p is a little above its order n, so
/// x(R) mod n is x(R) itself or, for the rare x(R) in [n, p), x(R) − n. The table path tests x(R) = r, then
/// x(R) = r + n, the latter only when r + n < p (the guard).
///
/// How a case is built: choose the point R and the scalars u1 and u2, then the key Q = u2⁻¹·(R − u1·G), so that
/// u1·G + u2·Q = R by construction; then s = r·u2⁻¹ and the digest e = u1·s (mod n), so that the verifier's own
/// w = s⁻¹, u1 = e·w and u2 = r·w are the chosen ones. Nobody knows Q's private key, and nobody needs it.
///
/// - **The branch**: R with x(R) ≥ n and r = x(R) − n, a valid signature. Deleting the r + n comparison from
///   `iaplens_fixed_key_verify` makes the table path reject it, and `theBranchAcceptsAValidSignature` fails.
/// - **The guard**: R with a small x0 and r = x0 + (p − n), still below n. The signature is forged: x0 mod n = x0 is
///   not r. Without the guard, r + n = x0 + p is reduced mod p in the comparison, equals x0, and the table path
///   accepts; `theGuardRefusesAForgedSignature` then fails.
///
/// Both mutants were checked by hand, one at a time: the guard's `if (BN_cmp(candidate, key->prime) >= 0)` block
/// deleted from `Sources/CFixedKeyECDSA/fixed_key_ecdsa.c`, or the whole r + n comparison replaced by `result = 0;`,
/// then `swift test --filter 'ConstructedSignatureTests|WycheproofTests'`. The guard's mutant fails
/// `theGuardRefusesAForgedSignature` (the table accepts the forgery) and one Wycheproof vector; the branch's fails
/// `theBranchAcceptsAValidSignature` and Wycheproof's tcId 115. Before these tests, both mutants passed every test.
@Suite("Constructed signatures: x(R) ≥ n and the r + n < p guard, through the table and through EVP")
struct ConstructedSignatureTests {
    /// A built case: the key Q (uncompressed point), the digest and the raw r‖s.
    struct Case {
        let key: [UInt8]
        let digest: [UInt8]
        let signature: [UInt8]
        /// x(R), for the test's own checks.
        let x: [UInt8]
    }

    /// P-256 with OpenSSL's numbers, and a BN_CTX, for building cases.
    final class Curve {
        let group: OpaquePointer
        let context: OpaquePointer
        let p: OpaquePointer
        let n: OpaquePointer

        init() throws {
            group = try #require(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1))
            context = try #require(BN_CTX_new())
            p = try #require(BN_new())
            #expect(EC_GROUP_get_curve(group, p, nil, nil, context) == 1)
            n = try #require(BN_dup(EC_GROUP_get0_order(group)))
        }

        deinit {
            BN_free(p)
            BN_free(n)
            BN_CTX_free(context)
            EC_GROUP_free(group)
        }

        func number(_ value: UInt) throws -> OpaquePointer {
            let bn = try #require(BN_new())
            #expect(BN_set_word(bn, value) == 1)
            return bn
        }

        func bytes(_ bn: OpaquePointer) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 32)
            _ = BN_bn2binpad(bn, &out, 32)
            return out
        }

        /// The first point of the curve whose x is `start`, `start` + 1, …: about every other x is one.
        func point(xFrom start: OpaquePointer) throws -> (point: OpaquePointer, x: OpaquePointer) {
            let x = try #require(BN_dup(start))
            let point = try #require(EC_POINT_new(group))
            for _ in 0..<256 {
                if EC_POINT_set_compressed_coordinates(group, point, x, 0, context) == 1 { return (point, x) }
                ERR_clear_error()
                #expect(BN_add_word(x, 1) == 1)
            }
            Issue.record("no point found after 256 candidates")
            return (point, x)
        }

        /// The case for R = `point` and the signature's r, with u1 and u2 fixed small scalars.
        func signature(r: OpaquePointer, point: OpaquePointer, x: OpaquePointer) throws -> Case {
            let u1 = try number(0x1234_5678_9abc), u2 = try number(0xfedc_ba98_7654)
            let u2Inverse = try #require(BN_mod_inverse(nil, u2, n, context))
            // Q = u2⁻¹·(R − u1·G)
            let q = try #require(EC_POINT_new(group))
            #expect(EC_POINT_mul(group, q, u1, nil, nil, context) == 1)
            #expect(EC_POINT_invert(group, q, context) == 1)
            #expect(EC_POINT_add(group, q, q, point, context) == 1)
            #expect(EC_POINT_mul(group, q, nil, q, u2Inverse, context) == 1)
            var key = [UInt8](repeating: 0, count: 65)
            #expect(EC_POINT_point2oct(group, q, POINT_CONVERSION_UNCOMPRESSED, &key, 65, context) == 65)
            // s = r·u2⁻¹, e = u1·s (mod n)
            let s = try #require(BN_new()), e = try #require(BN_new())
            #expect(BN_mod_mul(s, r, u2Inverse, n, context) == 1)
            #expect(BN_mod_mul(e, u1, s, n, context) == 1)
            defer { [u1, u2, u2Inverse, s, e].forEach { BN_free($0) }; EC_POINT_free(q) }
            return Case(key: key, digest: bytes(e), signature: bytes(r) + bytes(s), x: bytes(x))
        }
    }

    /// The DER SubjectPublicKeyInfo of an uncompressed P-256 point: the fixed prefix every such key has.
    static func subjectPublicKeyInfo(_ point: [UInt8]) -> [UInt8] {
        LeafPublicKeyTests.hexBytes("3059301306072a8648ce3d020106082a8648ce3d030107034200")! + point
    }

    /// The verdicts of the table path and of EVP on a case.
    static func verdicts(_ built: Case) throws -> (table: Bool, evp: Bool) {
        let der = subjectPublicKeyInfo(built.key)
        let table = try #require(LeafPublicKey(subjectPublicKeyInfo: der, tableAfter: 0))
        let evp = try #require(LeafPublicKey(subjectPublicKeyInfo: der, tableAfter: .max))
        let verdicts = (
            table.verify(sha256Digest: built.digest, rawSignature: built.signature),
            evp.verify(sha256Digest: built.digest, rawSignature: built.signature)
        )
        #expect(table.hasPrecomputedTable)
        return verdicts
    }

    @Test("The branch: R with x(R) ≥ n and r = x(R) − n is valid, and both paths accept it")
    func theBranchAcceptsAValidSignature() throws {
        let curve = try Curve()
        let start = try #require(BN_dup(curve.n))
        let (point, x) = try curve.point(xFrom: start)
        #expect(BN_cmp(x, curve.n) >= 0 && BN_cmp(x, curve.p) < 0, "x(R) lies in [n, p)")
        let r = try #require(BN_new())
        #expect(BN_sub(r, x, curve.n) == 1)
        let built = try curve.signature(r: r, point: point, x: x)
        let (table, evp) = try Self.verdicts(built)
        #expect(evp, "EVP accepts: x(R) mod n = r")
        #expect(table, "the table path accepts through its r + n comparison")
        // The same R with r = x(R) itself is out of range (r ≥ n): both refuse it.
        let outOfRange = try curve.signature(r: x, point: point, x: x)
        let refused = try Self.verdicts(outOfRange)
        #expect(!refused.table && !refused.evp)
        [start, x, r].forEach { BN_free($0) }
        EC_POINT_free(point)
    }

    @Test("The guard: r = x0 + (p − n) for R with a small x0 is forged, and both paths refuse it")
    func theGuardRefusesAForgedSignature() throws {
        let curve = try Curve()
        let one = try curve.number(1)
        let (point, x) = try curve.point(xFrom: one)
        // r = x0 + (p − n) < n: in range, so only the last step can refuse it.
        let r = try #require(BN_new())
        #expect(BN_add(r, x, curve.p) == 1 && BN_sub(r, r, curve.n) == 1)
        #expect(BN_cmp(r, curve.n) < 0)
        // r + n = x0 + p ≥ p: the guard's case; reduced mod p it would equal x0.
        let sum = try #require(BN_new())
        #expect(BN_add(sum, r, curve.n) == 1 && BN_cmp(sum, curve.p) >= 0)
        let built = try curve.signature(r: r, point: point, x: x)
        let (table, evp) = try Self.verdicts(built)
        #expect(!evp, "EVP refuses: x(R) mod n = x0 is not r")
        #expect(!table, "the table path refuses at the guard r + n ≥ p")
        // Control: the genuine signature for the same R, r = x0, verifies on both paths.
        let genuine = try curve.signature(r: x, point: point, x: x)
        let accepted = try Self.verdicts(genuine)
        #expect(accepted.table && accepted.evp)
        [one, x, r, sum].forEach { BN_free($0) }
        EC_POINT_free(point)
    }
}
