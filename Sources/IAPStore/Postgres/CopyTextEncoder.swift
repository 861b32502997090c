import Foundation

/// Rows in PostgreSQL's COPY text format: tab between columns, newline after each row, `\N` for NULL, and
/// backslash escapes for backslash, tab, newline and carriage return inside values.
struct CopyTextEncoder {
    private(set) var bytes: [UInt8] = []
    private(set) var rowCount = 0
    private var atRowStart = true

    init() {
        bytes.reserveCapacity(1 << 20)
    }

    mutating func add(_ value: String?) {
        separate()
        guard let value else {
            bytes.append(contentsOf: [0x5C, 0x4E])  // \N
            return
        }
        for byte in value.utf8 {
            switch byte {
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            // PostgreSQL text cannot hold U+0000 (SQLite can): it becomes U+FFFD, as in every other parameter.
            case 0x00: bytes.append(contentsOf: [0xEF, 0xBF, 0xBD])
            default: bytes.append(byte)
            }
        }
    }

    mutating func add(_ value: Int64?) {
        separate()
        if let value { bytes.append(contentsOf: String(value).utf8) } else { bytes.append(contentsOf: [0x5C, 0x4E]) }
    }

    mutating func add(_ value: Int?) { add(value.map(Int64.init)) }

    mutating func add(_ value: Bool?) { add(value.map { $0 ? Int64(1) : 0 }) }

    /// A closed vocabulary's value (``PayloadFormat``, ``TransactionSource``, ``DocumentKind``) as its text.
    mutating func add<Value: RawRepresentable>(_ value: Value) where Value.RawValue == String { add(value.rawValue) }

    mutating func add(_ value: SQLValue) {
        switch value {
        case .null: add(nil as String?)
        case .integer(let number): add(number)
        case .text(let text), .other(let text): add(text)
        }
    }

    /// Ends the current row.
    mutating func endRow() {
        bytes.append(0x0A)
        rowCount += 1
        atRowStart = true
    }

    private mutating func separate() {
        if atRowStart { atRowStart = false } else { bytes.append(0x09) }
    }

}
