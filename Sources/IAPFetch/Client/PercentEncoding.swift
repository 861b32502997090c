/// Percent-encoding of an ID put into a URL path or query: RFC 3986's unreserved characters stay, every other byte
/// of the UTF-8 becomes `%XX`. Written out rather than Foundation's `addingPercentEncoding` with a `CharacterSet`,
/// whose shared sets are not safe to use from several tasks at once on Linux (a SIGSEGV in the refund-history
/// fetch, four customers at a time).
enum PercentEncoding {
    static func escaped(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
