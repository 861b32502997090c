/// Relative links between report files, written so that every Markdown and HTML viewer resolves them alike.
enum PageLink {
    /// A path or fragment with every byte outside `A–Z a–z 0–9 - _ . ~ / #` percent-encoded, so spaces,
    /// parentheses and quotes from data can neither break a Markdown link nor leave an HTML attribute.
    static func encode(_ href: String) -> String {
        var out = ""
        for byte in href.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: "#"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }
}
