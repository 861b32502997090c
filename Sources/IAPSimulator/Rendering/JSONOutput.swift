import IAPFormats

/// A JSON value the simulator writes, with ordered object keys, rendered compactly and deterministically (what it
/// reads back is IAPFormats' ``JSONValue``; both use ``JSONText`` for strings).
///
/// The simulator writes JSON by hand rather than through `JSONEncoder` so that key order is
/// exactly the order Apple-shaped payloads are built in, and bytes never depend on a dictionary.
indirect enum JSONOutput: Sendable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case object([(String, JSONOutput)])
    case array([JSONOutput])
    case null

    /// Shorthand for integer literals of any width.
    static func number<T: BinaryInteger>(_ value: T) -> JSONOutput { .int(Int64(value)) }

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
            JSONText.appendString(value, to: &out)
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
                JSONText.appendString(member.0, to: &out)
                out += ":"
                member.1.write(into: &out)
            }
            out += "}"
        }
    }
}

/// Builds a JSON object member list, skipping absent optionals (Apple omits, never sends null).
struct JSONObjectBuilder {
    private(set) var members: [(String, JSONOutput)] = []

    mutating func add(_ key: String, _ value: JSONOutput) { members.append((key, value)) }
    mutating func add(_ key: String, _ value: String?) { if let value { members.append((key, .string(value))) } }
    mutating func add(_ key: String, _ value: Int64?) { if let value { members.append((key, .int(value))) } }
    mutating func add(_ key: String, _ value: Int?) { if let value { members.append((key, .int(Int64(value)))) } }
    mutating func add(_ key: String, _ value: Bool?) { if let value { members.append((key, .bool(value))) } }

    var value: JSONOutput { .object(members) }
}
