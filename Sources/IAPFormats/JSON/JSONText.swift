/// Writing JSON text: the one string escaper of the package (RFC 8259), used wherever iaplens writes JSON by hand
/// for byte-stable output (the simulator's documents, the test signer's headers). Parsing is ``JSONParser``'s.
public enum JSONText {
    /// Appends `value` to `out` as a JSON string literal: quotes, backslash and control characters escaped, every
    /// other character as itself (UTF-8).
    public static func appendString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// `value` as a JSON string literal.
    public static func quoted(_ value: String) -> String {
        var out = ""
        appendString(value, to: &out)
        return out
    }
}
