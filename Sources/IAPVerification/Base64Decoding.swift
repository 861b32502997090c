/// Strict base64 decoding for JWS segments (base64url) and `x5c` entries (standard base64).
///
/// Hand-written rather than Foundation's so one pass handles both alphabets, rejects the other alphabet's
/// characters (a `+` in a base64url segment is an error), and works on UTF-8 views without copying.
enum Base64Decoding {
    /// Which 64-character alphabet a text uses.
    enum Alphabet {
        /// RFC 4648 §5, used by JWS compact segments; padding is tolerated but not required.
        case url
        /// RFC 4648 §4, used by `x5c`; padding is tolerated but not required.
        case standard
    }

    private static let invalid: UInt8 = 0xFF

    private static func table(for alphabet: Alphabet) -> [UInt8] {
        var table = [UInt8](repeating: invalid, count: 256)
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for (index, byte) in letters.enumerated() { table[Int(byte)] = UInt8(index) }
        switch alphabet {
        case .url:
            table[Int(UInt8(ascii: "-"))] = 62
            table[Int(UInt8(ascii: "_"))] = 63
        case .standard:
            table[Int(UInt8(ascii: "+"))] = 62
            table[Int(UInt8(ascii: "/"))] = 63
        }
        return table
    }

    private static let urlTable = table(for: .url)
    private static let standardTable = table(for: .standard)

    /// Decodes `text`, or returns nil if it holds a character outside the alphabet, misplaced padding,
    /// or a length no encoder produces.
    static func decode<S: StringProtocol>(_ text: S, alphabet: Alphabet) -> [UInt8]? {
        let utf8 = text.utf8
        if let result = utf8.withContiguousStorageIfAvailable({ decode(bytes: $0, alphabet: alphabet) }) {
            return result
        }
        return Array(utf8).withUnsafeBufferPointer { decode(bytes: $0, alphabet: alphabet) }
    }

    private static func decode(bytes: UnsafeBufferPointer<UInt8>, alphabet: Alphabet) -> [UInt8]? {
        var count = bytes.count
        // Padding may only close the text, at most two characters, and only up to a multiple of 4.
        var padding = 0
        while count > 0, bytes[count - 1] == UInt8(ascii: "="), padding < 2 {
            count -= 1
            padding += 1
        }
        if padding > 0, bytes.count % 4 != 0 { return nil }
        if count % 4 == 1 { return nil }
        let table = alphabet == .url ? urlTable : standardTable
        var output = [UInt8]()
        output.reserveCapacity(count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for index in 0..<count {
            let value = table[Int(bytes[index])]
            if value == invalid { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero, otherwise two different texts would decode to the same bytes.
        if bits > 0, accumulator & ((1 << UInt32(bits)) - 1) != 0 { return nil }
        return output
    }
}
