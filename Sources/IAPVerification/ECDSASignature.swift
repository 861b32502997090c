/// Converts a JWS ECDSA signature (raw `r‖s`, RFC 7518 §3.4) to the DER `ECDSA-Sig-Value` OpenSSL verifies.
enum ECDSASignature {
    /// The size of an ES256 signature: two 32-byte big-endian integers.
    static let es256RawLength = 64

    /// DER-encodes a raw `r‖s` pair, or returns nil when the input is not an even, non-empty length.
    static func derFromRaw(_ raw: [UInt8]) -> [UInt8]? {
        guard !raw.isEmpty, raw.count % 2 == 0, raw.count <= 2 * 66 else { return nil }
        let half = raw.count / 2
        let r = derInteger(raw[0..<half])
        let s = derInteger(raw[half...])
        let body = r + s
        return [0x30] + derLength(body.count) + body
    }

    /// Encodes an unsigned big-endian integer as a minimal, positive DER INTEGER.
    private static func derInteger(_ magnitude: ArraySlice<UInt8>) -> [UInt8] {
        var digits = Array(magnitude.drop { $0 == 0 })
        if digits.isEmpty { digits = [0] }
        if digits[0] & 0x80 != 0 { digits.insert(0, at: 0) }
        return [0x02] + derLength(digits.count) + digits
    }

    private static func derLength(_ length: Int) -> [UInt8] {
        length < 0x80 ? [UInt8(length)] : [0x81, UInt8(length)]
    }
}
