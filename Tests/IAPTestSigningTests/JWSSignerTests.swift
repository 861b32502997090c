import Foundation
import IAPVerification
import Testing

@testable import IAPTestSigning

@Suite("Deterministic JWS signer")
struct JWSSignerTests {
    static let payload = Array("{\"signedDate\":1700000000000,\"notificationType\":\"TEST\"}".utf8)

    @Test("Same seed and payload give an identical JWS string, even from separately generated chains")
    func deterministic() throws {
        let first = try JWSSigner(chain: TestCertificateChain.generate(seed: "determinism")).sign(payload: Self.payload)
        let second = try JWSSigner(chain: TestCertificateChain.generate(seed: "determinism")).sign(
            payload: Self.payload)
        #expect(first == second)
    }

    @Test("A different seed or a different payload gives a different JWS")
    func differs() throws {
        let signer = try JWSSigner(chain: TestCertificateChain.generate(seed: "one"))
        let other = try JWSSigner(chain: TestCertificateChain.generate(seed: "two"))
        let base = try signer.sign(payload: Self.payload)
        #expect(try other.sign(payload: Self.payload) != base)
        let changed = try signer.sign(payload: Self.payload + [0x20])
        #expect(changed.split(separator: ".")[2] != base.split(separator: ".")[2])
    }

    @Test(
        "The header is exactly {\"alg\":\"ES256\",\"x5c\":[leaf, intermediate, root]} and segments are unpadded base64url"
    )
    func headerShape() throws {
        let chain = try TestCertificateChain.generate(seed: "shape")
        let jws = try JWSSigner(chain: chain).sign(payload: Self.payload)
        #expect(!jws.contains("=") && !jws.contains("+") && !jws.contains("/"))
        let parsed = try CompactJWS.parse(jws).get()
        let header = String(decoding: try #require(Self.base64URLDecode(parsed.headerSegment)), as: UTF8.self)
        let x5c = chain.x5c.map { "\"\($0)\"" }.joined(separator: ",")
        #expect(header == "{\"alg\":\"ES256\",\"x5c\":[\(x5c)]}")
        #expect(chain.x5c[0] == Data(chain.leafDER).base64EncodedString())
    }

    @Test("Signatures verify with IAPVerification, concurrently from several tasks")
    func concurrentSigning() async throws {
        let chain = try TestCertificateChain.generate(seed: "concurrent")
        let signer = JWSSigner(chain: chain)
        let verifier = try JWSVerifier(trustedRoots: [TrustedRoot(der: chain.rootDER)])
        let serial = try (0..<32).map { try signer.sign(payload: Array("{\"n\":\($0)}".utf8)) }
        let parallel = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<32 {
                group.addTask { (index, try signer.sign(payload: Array("{\"n\":\(index)}".utf8))) }
            }
            var results = [String](repeating: "", count: 32)
            for try await (index, jws) in group { results[index] = jws }
            return results
        }
        #expect(parallel == serial)
        for jws in parallel {
            let result = CompactJWS.parse(jws).flatMap { verifier.verify($0, atMillis: 1_700_000_000_000) }
            #expect(throws: Never.self) { try result.get() }
        }
    }

    @Test(
        "RFC 6979 A.2.5 vectors (P-256, SHA-256): nonce, r and s match the RFC",
        arguments: [
            (
                "sample", "a6e3c57dd01abe90086538398355dd4c3b17aa873382b0f24d6129493d8aad60",
                "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716",
                "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"
            ),
            (
                "test", "d16b6ae827f17175e040871a1c7ec3500192c4c92677336ec2537acaee0008e0",
                "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367",
                "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083"
            ),
        ])
    func rfc6979Vectors(message: String, k: String, r: String, s: String) throws {
        let privateKey = Self.hex("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721")
        let order = Self.hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        let digest = Digest.sha256.hash(Array(message.utf8))
        #expect(RFC6979.nonce(privateKey: privateKey, digest: digest, order: order, hash: .sha256) == Self.hex(k))
        let key = try ECSigningKey(privateScalar: privateKey, curve: .p256)
        let signature = try key.sign(digest: digest)
        #expect(signature.r == Self.hex(r))
        #expect(signature.s == Self.hex(s))
    }

    @Test("HMAC-SHA256 matches RFC 4231 test case 2")
    func hmac() {
        let mac = Digest.sha256.hmac(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))
        #expect(mac == Self.hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"))
    }

    @Test("Header overrides: alg omitted, x5c omitted, extra fields sorted, JSON escaping")
    func overrides() {
        let override = JWSHeaderOverride(alg: nil, omitX5C: true, extraFields: ["typ": "JWT", "kid": "a\"b"])
        #expect(override.json(defaultX5C: ["x"]) == "{\"kid\":\"a\\\"b\",\"typ\":\"JWT\"}")
        #expect(
            JWSHeaderOverride(x5c: ["1", "2"]).json(defaultX5C: ["x"]) == "{\"alg\":\"ES256\",\"x5c\":[\"1\",\"2\"]}")
        #expect(JWSHeaderOverride.quoted("\u{01}") == "\"\\u0001\"")
    }

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    static func base64URLDecode(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
