/// Escaping for HTML text and attribute values (double-quoted).
///
/// Every character that could open markup or leave an attribute becomes an entity, so a product ID such as
/// `"><script>` shows as those characters and nothing else. Control characters become spaces and bidirectional
/// overrides U+FFFD (an ID cannot disguise itself); data is cut at ``Text/maximumDataLength``.
enum HTMLText {
    static func escape(_ text: String, limit: Int = .max) -> String {
        // Most text (IDs, figures, sentences) is printable ASCII without markup: returned as it is, without
        // building a copy scalar by scalar (the copy was the largest single cost of writing 6,000 case pages).
        if text.utf8.count <= limit, text.utf8.allSatisfy(isPlain) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for (index, scalar) in text.unicodeScalars.enumerated() {
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

    /// Printable ASCII that is neither markup nor a quote.
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<")
            && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
    }
}
