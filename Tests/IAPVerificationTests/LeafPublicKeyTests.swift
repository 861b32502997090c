import IAPFormats
import IAPTestSigning
import Testing

@testable import IAPVerification

/// A leaf key checks with its precomputed table (``PrecomputedKey``) exactly what it checks through EVP.
@Suite("Leaf keys: the precomputed table and EVP agree")
struct LeafPublicKeyTests {
    /// The order n of P-256's group, big-endian.
    static let order: [UInt8] = hexBytes("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")!

    /// Genuine ES256 signatures by a test leaf key: (SHA-256 of the signing input, raw r‖s).
    static func signatures(count: Int, chain: TestCertificateChain) throws -> [(digest: [UInt8], signature: [UInt8])] {
        let signer = JWSSigner(chain: chain)
        return try (0..<count).map { index in
            let jws = try signer.sign(payload: TestPKI.payload(note: "table \(index)"))
            let parsed = try CompactJWS.parse(jws).get()
            return (parsed.signingInputDigest, parsed.signature)
        }
    }

    /// The signature with every way of getting it wrong, each with whether it must verify.
    static func variants(of digest: [UInt8], _ signature: [UInt8]) -> [(
        name: String, digest: [UInt8], signature: [UInt8], valid: Bool
    )] {
        let r = Array(signature[..<32]), s = Array(signature[32...])
        var result: [(String, [UInt8], [UInt8], Bool)] = [("genuine", digest, signature, true)]
        // (r, n - s) is the same signature's twin: ECDSA accepts both, and so does OpenSSL.
        result.append(("n - s", digest, r + subtract(order, s), true))
        for bit in [0, 7, 100, 255] {
            var flipped = digest
            flipped[bit / 8] ^= 1 << (bit % 8)
            result.append(("digest bit \(bit)", flipped, signature, false))
            var rFlipped = signature, sFlipped = signature
            rFlipped[bit / 8] ^= 1 << (bit % 8)
            sFlipped[32 + bit / 8] ^= 1 << (bit % 8)
            result.append(("r bit \(bit)", digest, rFlipped, false))
            result.append(("s bit \(bit)", digest, sFlipped, false))
        }
        let zero = [UInt8](repeating: 0, count: 32), ones = [UInt8](repeating: 0xFF, count: 32)
        let one: [UInt8] = zero.dropLast() + [1]
        let wrong: [(String, [UInt8])] = [
            ("r = 0", zero + s), ("s = 0", r + zero), ("r = n", order + s), ("s = n", r + order),
            ("r = 2^256 - 1", ones + s), ("s = 2^256 - 1", r + ones), ("r = 1, s = 1", one + one),
            ("r and s swapped", s + r), ("s = n - 1", r + subtract(order, one)),
        ]
        for (name, bytes) in wrong { result.append((name, digest, bytes, false)) }
        return result
    }

    @Test("Every genuine, twin, flipped and out-of-range signature gets the same verdict from the table as from EVP")
    func tableMatchesEVP() throws {
        let chain = try TestPKI.chain("leaf-key-table")
        let certificate = try #require(X509Certificate(der: chain.leafDER))
        let withTable = try #require(LeafPublicKey(certificate: certificate, tableAfter: 0))
        let throughEVP = try #require(LeafPublicKey(certificate: certificate, tableAfter: .max))
        var checked = 0
        for (digest, signature) in try Self.signatures(count: 24, chain: chain) {
            for variant in Self.variants(of: digest, signature) {
                let der = try #require(ECDSASignature.derFromRaw(variant.signature))
                let evp = throughEVP.verify(sha256Digest: variant.digest, derSignature: der)
                let table = withTable.verify(sha256Digest: variant.digest, rawSignature: variant.signature)
                #expect(evp == variant.valid, "EVP, \(variant.name)")
                #expect(table == variant.valid, "table, \(variant.name)")
                checked += 1
            }
        }
        #expect(checked == 24 * 23)
        #expect(withTable.hasPrecomputedTable)
        #expect(!throughEVP.hasPrecomputedTable)
    }

    @Test("A key builds its table only after the checks it was told to make through EVP, then keeps verifying")
    func tableAfterThreshold() throws {
        let chain = try TestPKI.chain("leaf-key-threshold")
        let certificate = try #require(X509Certificate(der: chain.leafDER))
        let key = try #require(LeafPublicKey(certificate: certificate, tableAfter: 3))
        let signed = try Self.signatures(count: 6, chain: chain)
        for (index, (digest, signature)) in signed.enumerated() {
            // Two checks per round: the first 3 go through EVP, the 4th builds the table.
            #expect(key.hasPrecomputedTable == (2 * index > 3), "before round \(index)")
            #expect(key.verify(sha256Digest: digest, rawSignature: signature))
            #expect(!key.verify(sha256Digest: signed[(index + 1) % 6].digest, rawSignature: signature))
        }
        #expect(key.hasPrecomputedTable)
        // Wrong sizes are refused before either path sees them.
        #expect(!key.verify(sha256Digest: signed[0].digest, rawSignature: Array(signed[0].signature.dropLast())))
        #expect(!key.verify(sha256Digest: Array(signed[0].digest.dropLast()), rawSignature: signed[0].signature))
    }

    @Test("A verifier whose keys build their tables at once accepts and refuses the same JWS as one that never does")
    func verifiersAgree() throws {
        let chain = try TestPKI.chain("leaf-key-verifier")
        let other = try TestPKI.chain("leaf-key-verifier-other")
        let roots = [try TrustedRoot(der: chain.rootDER)]
        let atOnce = try JWSVerifier(trustedRoots: roots, keyTableAfter: 0)
        let never = try JWSVerifier(trustedRoots: roots, keyTableAfter: .max)
        let signer = JWSSigner(chain: chain)
        var cases: [String] = []
        for index in 0..<8 {
            let jws = try signer.sign(payload: TestPKI.payload(note: "verifier \(index)"))
            cases.append(jws)
            // The payload changed after signing, the signature of another payload, another chain's signature.
            let parts = jws.split(separator: ".").map(String.init)
            let altered = try signer.sign(payload: TestPKI.payload(note: "altered \(index)")).split(separator: ".").map(
                String.init)
            cases.append([parts[0], altered[1], parts[2]].joined(separator: "."))
            cases.append([parts[0], parts[1], altered[2]].joined(separator: "."))
            cases.append(try JWSSigner(chain: other).sign(payload: TestPKI.payload(note: "other \(index)")))
        }
        var accepted = 0
        for jws in cases {
            let a = TestPKI.reason(TestPKI.check(jws, with: atOnce))
            let b = TestPKI.reason(TestPKI.check(jws, with: never))
            #expect(a == b, "\(jws.prefix(40))…")
            if a == nil { accepted += 1 }
        }
        #expect(accepted == 8)
    }

    @Test("Apple's production leaf key builds its table, and both paths refuse signatures it did not make")
    func appleProductionKey() throws {
        let certificate = try #require(
            X509Certificate(der: try AppleProductionChainTests.resource("apple-production-leaf.der")))
        let withTable = try #require(LeafPublicKey(certificate: certificate, tableAfter: 0))
        let throughEVP = try #require(LeafPublicKey(certificate: certificate, tableAfter: .max))
        // A test key's genuine signatures are forgeries for Apple's key.
        for (digest, signature) in try Self.signatures(count: 8, chain: try TestPKI.chain("not-apple")) {
            let der = try #require(ECDSASignature.derFromRaw(signature))
            #expect(!withTable.verify(sha256Digest: digest, rawSignature: signature))
            #expect(!throughEVP.verify(sha256Digest: digest, derSignature: der))
        }
        #expect(withTable.hasPrecomputedTable)
    }

    /// Big-endian a - b for a ≥ b, 32 bytes.
    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var difference = Int(a[index]) - Int(b[index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            result[index] = UInt8(difference)
        }
        return result
    }

    /// The bytes a hex string spells (either case), or nil when it is not whole bytes of hex digits.
    static func hexBytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}
