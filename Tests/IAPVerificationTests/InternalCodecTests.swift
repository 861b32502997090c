@testable import IAPVerification
import Testing

@Suite("Base64 and ECDSA signature conversion")
struct InternalCodecTests {
    @Test("base64url decodes with and without padding and rejects the other alphabet")
    func base64URL() {
        #expect(Base64Decoding.decode("aGk", alphabet: .url) == Array("hi".utf8))
        #expect(Base64Decoding.decode("aGk=", alphabet: .url) == Array("hi".utf8))
        #expect(Base64Decoding.decode("-_8", alphabet: .url) == [0xFB, 0xFF])
        #expect(Base64Decoding.decode("+/8", alphabet: .url) == nil)
        #expect(Base64Decoding.decode("+/8=", alphabet: .standard) == [0xFB, 0xFF])
        #expect(Base64Decoding.decode("", alphabet: .url) == [])
    }

    @Test("Impossible lengths, stray padding and non-zero leftover bits are rejected",
          arguments: ["a", "abcde", "a=bc", "aGl=", "aGk==", "ab===", "aG k"])
    func base64Rejects(text: String) {
        #expect(Base64Decoding.decode(text, alphabet: .url) == nil)
    }

    @Test("raw r‖s becomes minimal positive DER integers")
    func derFromRaw() throws {
        var raw = [UInt8](repeating: 0, count: 64)
        raw[0] = 0x80 // r needs a leading zero byte
        raw[63] = 0x01 // s is 1 after stripping leading zeros
        let der = try #require(ECDSASignature.derFromRaw(raw))
        #expect(der == [0x30, 0x26, 0x02, 0x21, 0x00, 0x80] + [UInt8](repeating: 0, count: 31) + [0x02, 0x01, 0x01])
        #expect(ECDSASignature.derFromRaw([]) == nil)
        #expect(ECDSASignature.derFromRaw([1, 2, 3]) == nil)
    }

    @Test("Civil time formatting")
    func civilTime() {
        #expect(CivilTime.iso8601(0) == "1970-01-01T00:00:00Z")
        #expect(CivilTime.iso8601(1_761_962_975) == "2025-11-01T02:09:35Z")
        #expect(CivilTime.epochSeconds(year: 2045, month: 1, day: 1, hour: 0, minute: 0, second: 0) == 2_366_841_600)
        #expect(CivilTime.epochSeconds(year: 2000, month: 2, day: 29, hour: 12, minute: 0, second: 0) == 951_825_600)
    }
}
