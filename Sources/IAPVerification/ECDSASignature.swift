/// Converts a JWS ECDSA signature (raw `r‖s`, RFC 7518 §3.4) to the DER `ECDSA-Sig-Value` OpenSSL verifies.
enum ECDSASignature {
    /// The size of an ES256 signature: two 32-byte big-endian integers.
    static let es256RawLength = 64

    /// DER-encodes a raw `r‖s` pair, or returns nil when the input is not an even, non-empty length.
    /// Written straight into one array: it runs once per signature check.
    static func derFromRaw(_ raw: [UInt8]) -> [UInt8]? {
        guard !raw.isEmpty, raw.count % 2 == 0, raw.count <= 2 * 66 else { return nil }
        let half = raw.count / 2
        let r = integerShape(raw[0..<half])
        let s = integerShape(raw[half...])
        let bodyLength = r.encodedLength + s.encodedLength
        var der: [UInt8] = []
        der.reserveCapacity(3 + bodyLength)
        der.append(0x30)
        appendLength(bodyLength, to: &der)
        appendInteger(raw[0..<half], shape: r, to: &der)
        appendInteger(raw[half...], shape: s, to: &der)
        return der
    }

    /// How a big-endian magnitude is written as a minimal, positive DER INTEGER: leading zero bytes dropped
    /// (one kept for zero itself), and a zero byte put in front when the top bit is set.
    private struct IntegerShape {
        let skipped: Int
        let padded: Bool
        let contentLength: Int
        var encodedLength: Int { 1 + (contentLength < 0x80 ? 1 : 2) + contentLength }
    }

    private static func integerShape(_ magnitude: ArraySlice<UInt8>) -> IntegerShape {
        var skipped = 0
        while skipped < magnitude.count - 1, magnitude[magnitude.startIndex + skipped] == 0 { skipped += 1 }
        let first = magnitude[magnitude.startIndex + skipped]
        let padded = first & 0x80 != 0
        return IntegerShape(
            skipped: skipped, padded: padded, contentLength: magnitude.count - skipped + (padded ? 1 : 0))
    }

    private static func appendInteger(_ magnitude: ArraySlice<UInt8>, shape: IntegerShape, to der: inout [UInt8]) {
        der.append(0x02)
        appendLength(shape.contentLength, to: &der)
        if shape.padded { der.append(0) }
        der.append(contentsOf: magnitude.dropFirst(shape.skipped))
    }

    private static func appendLength(_ length: Int, to der: inout [UInt8]) {
        if length >= 0x80 { der.append(0x81) }
        der.append(UInt8(length))
    }
}
