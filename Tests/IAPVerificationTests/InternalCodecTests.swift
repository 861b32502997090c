import COpenSSL
import IAPFormats
import Testing

@testable import IAPVerification

@Suite("Base64 and ECDSA signature conversion")
struct InternalCodecTests {
    @Test("base64url decodes unpadded text, refuses padding and the other alphabet; standard base64 takes padding")
    func base64URL() {
        #expect(Base64Decoding.decode("aGk", alphabet: .url) == Array("hi".utf8))
        // Padded, one JWS would have two spellings and so two identities: refused, as Apple's libraries refuse it.
        #expect(Base64Decoding.decode("aGk=", alphabet: .url) == nil)
        #expect(Base64Decoding.decode("aGk=", alphabet: .standard) == Array("hi".utf8))
        #expect(Base64Decoding.decode("-_8", alphabet: .url) == [0xFB, 0xFF])
        #expect(Base64Decoding.decode("+/8", alphabet: .url) == nil)
        #expect(Base64Decoding.decode("+/8=", alphabet: .standard) == [0xFB, 0xFF])
        #expect(Base64Decoding.decode("", alphabet: .url) == [])
    }

    @Test(
        "Impossible lengths, stray padding and non-zero leftover bits are rejected",
        arguments: ["a", "abcde", "a=bc", "aGl=", "aGk==", "ab===", "aG k"])
    func base64Rejects(text: String) {
        #expect(Base64Decoding.decode(text, alphabet: .url) == nil)
    }

    @Test("raw r‖s becomes minimal positive DER integers")
    func derFromRaw() throws {
        var raw = [UInt8](repeating: 0, count: 64)
        raw[0] = 0x80  // r needs a leading zero byte
        raw[63] = 0x01  // s is 1 after stripping leading zeros
        let der = try #require(ECDSASignature.derFromRaw(raw))
        #expect(der == [0x30, 0x26, 0x02, 0x21, 0x00, 0x80] + [UInt8](repeating: 0, count: 31) + [0x02, 0x01, 0x01])
        #expect(ECDSASignature.derFromRaw([]) == nil)
        #expect(ECDSASignature.derFromRaw([1, 2, 3]) == nil)
    }

    @Test("DER signatures are what OpenSSL writes for the same r and s (zero, short, high-bit and P-521 sizes)")
    func derFromRawMatchesOpenSSL() throws {
        var generator = SystemRandomNumberGenerator()
        var cases: [[UInt8]] = [
            [UInt8](repeating: 0, count: 64), [UInt8](repeating: 0xFF, count: 64), [UInt8](repeating: 0x7F, count: 132),
        ]
        for length in [2, 8, 64, 64, 64, 96, 132] {
            var raw = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            raw[0] = [0x00, 0x01, 0x80][Int.random(in: 0..<3, using: &generator)]
            cases.append(raw)
        }
        for raw in cases {
            let half = raw.count / 2
            let signature = try #require(ECDSA_SIG_new())
            defer { ECDSA_SIG_free(signature) }
            let r = BN_bin2bn(raw, Int32(half), nil)
            let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + half, Int32(half), nil) }
            #expect(ECDSA_SIG_set0(signature, r, s) == 1)
            var out: UnsafeMutablePointer<UInt8>?
            let length = i2d_ECDSA_SIG(signature, &out)
            let expected = Array(UnsafeBufferPointer(start: out, count: Int(length)))
            CRYPTO_free(out, #file, #line)
            #expect(ECDSASignature.derFromRaw(raw) == expected, "raw \(raw)")
        }
    }

    @Test("Civil time formatting")
    func civilTime() {
        #expect(CivilTime.iso8601(0) == "1970-01-01T00:00:00Z")
        #expect(CivilTime.iso8601(1_761_962_975) == "2025-11-01T02:09:35Z")
        #expect(CivilTime.epochSeconds(year: 2045, month: 1, day: 1, hour: 0, minute: 0, second: 0) == 2_366_841_600)
        #expect(CivilTime.epochSeconds(year: 2000, month: 2, day: 29, hour: 12, minute: 0, second: 0) == 951_825_600)
    }
}
