/// A JSON value with ordered object keys, rendered compactly and deterministically.
///
/// The simulator writes JSON by hand rather than through `JSONEncoder` so that key order is
/// exactly the order Apple-shaped payloads are built in, and bytes never depend on a dictionary.
indirect enum JSONValue: Sendable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case object([(String, JSONValue)])
    case array([JSONValue])
    case null

    /// Shorthand for integer literals of any width.
    static func number<T: BinaryInteger>(_ value: T) -> JSONValue { .int(Int64(value)) }

    /// The compact JSON text.
    var text: String {
        var out = ""
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    /// The compact JSON text as UTF-8 bytes.
    var bytes: [UInt8] { Array(text.utf8) }

    func write(into out: inout String) {
        switch self {
        case .string(let value):
            JSONValue.writeString(value, into: &out)
        case .int(let value):
            out += String(value)
        case .bool(let value):
            out += value ? "true" : "false"
        case .null:
            out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                JSONValue.writeString(member.0, into: &out)
                out += ":"
                member.1.write(into: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, into out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

/// Builds a JSON object member list, skipping absent optionals (Apple omits, never sends null).
struct JSONObjectBuilder {
    private(set) var members: [(String, JSONValue)] = []

    mutating func add(_ key: String, _ value: JSONValue) { members.append((key, value)) }
    mutating func add(_ key: String, _ value: String?) { if let value { members.append((key, .string(value))) } }
    mutating func add(_ key: String, _ value: Int64?) { if let value { members.append((key, .int(value))) } }
    mutating func add(_ key: String, _ value: Int?) { if let value { members.append((key, .int(Int64(value)))) } }
    mutating func add(_ key: String, _ value: Bool?) { if let value { members.append((key, .bool(value))) } }

    var value: JSONValue { .object(members) }
}
