/// A minimal DER encoder: just the ASN.1 types an X.509 certificate and a SEC1 key need.
///
/// Certificates are assembled by hand, not with `X509_sign`, so every byte (including the signature) is a
/// pure function of the seed and options.
enum DER {
    /// Tag, definite length, content.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        [tag] + length(content.count) + content
    }

    /// SEQUENCE of already-encoded elements.
    static func sequence(_ elements: [[UInt8]]) -> [UInt8] { tlv(0x30, elements.flatMap { $0 }) }

    /// SET of already-encoded elements (callers pass one element, so no DER sorting is needed).
    static func set(_ elements: [[UInt8]]) -> [UInt8] { tlv(0x31, elements.flatMap { $0 }) }

    /// Context-specific constructed tag `[number]`, for EXPLICIT tagging.
    static func explicit(_ number: UInt8, _ content: [UInt8]) -> [UInt8] { tlv(0xA0 | number, content) }

    /// INTEGER from an unsigned big-endian magnitude, minimal and positive.
    static func integer(unsigned magnitude: [UInt8]) -> [UInt8] {
        var digits = Array(magnitude.drop { $0 == 0 })
        if digits.isEmpty { digits = [0] }
        if digits[0] & 0x80 != 0 { digits.insert(0, at: 0) }
        return tlv(0x02, digits)
    }

    /// INTEGER from a small non-negative value.
    static func integer(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var remaining = value
        repeat {
            bytes.insert(UInt8(remaining & 0xFF), at: 0)
            remaining >>= 8
        } while remaining > 0
        return integer(unsigned: bytes)
    }

    /// BOOLEAN.
    static func boolean(_ value: Bool) -> [UInt8] { [0x01, 0x01, value ? 0xFF : 0x00] }

    /// NULL.
    static let null: [UInt8] = [0x05, 0x00]

    /// OCTET STRING.
    static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x04, bytes) }

    /// BIT STRING with the given number of unused bits in the last byte.
    static func bitString(_ bytes: [UInt8], unusedBits: UInt8 = 0) -> [UInt8] { tlv(0x03, [unusedBits] + bytes) }

    /// UTF8String.
    static func utf8String(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }

    /// OBJECT IDENTIFIER from dotted text such as `"1.2.840.10045.4.3.3"`; the caller passes constants only.
    static func objectIdentifier(_ dotted: String) -> [UInt8] {
        let arcs = dotted.split(separator: ".").compactMap { UInt64($0) }
        guard arcs.count >= 2 else { return tlv(0x06, []) }
        var content = base128(arcs[0] * 40 + arcs[1])
        for arc in arcs.dropFirst(2) { content += base128(arc) }
        return tlv(0x06, content)
    }

    /// RFC 5280 §4.1.2.5: UTCTime for 1950–2049, GeneralizedTime otherwise, always in UTC with seconds.
    static func time(epochSeconds: Int64) -> [UInt8] {
        let parts = UTCDate(epochSeconds: epochSeconds)
        let rest = [parts.month, parts.day, parts.hour, parts.minute, parts.second].map { pad($0, 2) }.joined()
        if (1950...2049).contains(parts.year) {
            return tlv(0x17, Array((pad(parts.year % 100, 2) + rest + "Z").utf8))
        }
        return tlv(0x18, Array((pad(parts.year, 4) + rest + "Z").utf8))
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func base128(_ value: UInt64) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var remaining = value >> 7
        while remaining > 0 {
            bytes.insert(UInt8(remaining & 0x7F) | 0x80, at: 0)
            remaining >>= 7
        }
        return bytes
    }

    private static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var remaining = count
        while remaining > 0 {
            bytes.insert(UInt8(remaining & 0xFF), at: 0)
            remaining >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
