/// Escaping and number formatting for SVG written as text.
enum SVGMarkup {
    /// Data or our own words inside an element or attribute: XML's five special characters become entities, control
    /// characters and bidirectional overrides are replaced, and long texts are cut with `…`.
    static func text(_ value: String, limit: Int = Text.maximumDataLength) -> String {
        var out = ""
        for (index, scalar) in value.unicodeScalars.enumerated() {
            if index == limit {
                out += "…"
                break
            }
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}", "\u{200E}", "\u{200F}": out += "\u{FFFD}"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || scalar == "\u{2028}" || scalar == "\u{2029}"
                {
                    out += " "
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A coordinate with one decimal, `-0` written `0`: the same text for the same number on every machine.
    static func number(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        let magnitude = tenths.magnitude
        let body = magnitude % 10 == 0 ? "\(magnitude / 10)" : "\(magnitude / 10).\(magnitude % 10)"
        return tenths < 0 ? "-" + body : body
    }
}
