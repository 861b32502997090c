extension JSONValue {
    /// Canonical serialization: object keys sorted by their UTF-8 bytes, no insignificant whitespace, strings with
    /// minimal escaping (`"`, `\` and control characters as `\u00xx` in lower case; `/` and non-ASCII left as is),
    /// numbers as their original literal text.
    ///
    /// Two documents that differ only in key order or whitespace give the same bytes, which is what gives V1
    /// notification bodies (they carry no id) a stable SHA-256 identity.
    public func canonicalJSON() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        CanonicalWriter.write(self, into: &output)
        return output
    }
}

/// Writes ``JSONValue/canonicalJSON()``.
enum CanonicalWriter {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func write(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.text.utf8)
        case .string(let string): writeString(string, into: &output)
        case .array(let elements):
            output.append(Byte.openBracket)
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(Byte.comma) }
                write(element, into: &output)
            }
            output.append(Byte.closeBracket)
        case .object(let object):
            output.append(Byte.openBrace)
            // Byte order, not Swift's String ordering (which compares Unicode-normalised text).
            let order =
                object.count < 2
                ? Array(object.keys.indices)
                : object.keys.indices.sorted { object.keys[$0].utf8.lexicographicallyPrecedes(object.keys[$1].utf8) }
            for (position, memberIndex) in order.enumerated() {
                if position > 0 { output.append(Byte.comma) }
                writeString(object.keys[memberIndex], into: &output)
                output.append(Byte.colon)
                write(object.values[memberIndex], into: &output)
            }
            output.append(Byte.closeBrace)
        }
    }

    static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(Byte.quote)
        // Nearly every string (Apple's ids, codes and dates) needs no escape: copied whole, not byte by byte.
        let copied = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes where byte == Byte.quote || byte == Byte.backslash || byte < 0x20 { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            output.append(Byte.quote)
            return
        }
        for byte in string.utf8 {
            switch byte {
            case Byte.quote, Byte.backslash:
                output.append(Byte.backslash)
                output.append(byte)
            case ..<0x20:
                output.append(contentsOf: [Byte.backslash, UInt8(ascii: "u"), Byte.zero, Byte.zero])
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default:
                output.append(byte)
            }
        }
        output.append(Byte.quote)
    }
}
