/// The recursive-descent machinery behind ``JSONParser``: one pass over the bytes, no per-character allocation.
///
/// Recursion depth is bounded by `maxDepth`, so hostile nesting cannot overflow the stack.
struct JSONScanner {
    let bytes: UnsafeRawBufferPointer
    let maxDepth: Int
    let maxStringBytes: Int
    var index = 0
    /// Reused buffer for strings that contain escapes (the only ones that need decoding into new bytes).
    var scratch: [UInt8] = []

    init(bytes: UnsafeRawBufferPointer, maxDepth: Int, maxStringBytes: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw failure("the input holds no JSON value") }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else {
            throw failure("unexpected \(describeByte(at: index)) after the end of the JSON value (trailing garbage)")
        }
        return value
    }

    // MARK: - Structure

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw failure("the input ends where a value was expected") }
        switch bytes[index] {
        case Byte.openBrace: return try parseObject(depth: depth + 1)
        case Byte.openBracket: return try parseArray(depth: depth + 1)
        case Byte.quote:
            index += 1
            return .string(try parseStringBody())
        case Byte.minus, Byte.zero...Byte.nine: return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default:
            throw failure("unexpected \(describeByte(at: index)) where a value was expected")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw failure("arrays and objects are nested deeper than \(maxDepth) levels") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == Byte.closeBracket {
            index += 1
            return .array([])
        }
        var elements: [JSONValue] = []
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw failure("the input ends inside an array; expected ',' or ']'") }
            switch bytes[index] {
            case Byte.comma: index += 1
            case Byte.closeBracket:
                index += 1
                return .array(elements)
            default: throw failure("expected ',' or ']' in an array but found \(describeByte(at: index))")
            }
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw failure("arrays and objects are nested deeper than \(maxDepth) levels") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == Byte.closeBrace {
            index += 1
            return .object(JSONObject())
        }
        var keys: [String] = []
        var values: [JSONValue] = []
        if depth == 1 {
            // The document's own object (a whole payload: 10 to 40 members) starts with room for 32 instead of
            // growing through six reallocations; nested objects grow from empty, so a hostile document of a
            // million small objects still costs no more than their members.
            keys.reserveCapacity(32)
            values.reserveCapacity(32)
        }
        var keyIndex: JSONKeyIndex?
        while true {
            skipWhitespace()
            let keyOffset = index
            guard index < bytes.count, bytes[index] == Byte.quote else {
                throw failure("expected a quoted key in an object but found \(describeByte(at: index))")
            }
            index += 1
            let key = try parseStringBody()
            if isDuplicate(key, keys: keys, index: &keyIndex) {
                throw JSONParseError(offset: keyOffset, message: "the key \"\(key)\" appears twice in the same object")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == Byte.colon else {
                throw failure("expected ':' after the key \"\(key)\" but found \(describeByte(at: index))")
            }
            index += 1
            skipWhitespace()
            keys.append(key)
            values.append(try parseValue(depth: depth))
            keyIndex?.append(key, in: keys)
            skipWhitespace()
            guard index < bytes.count else { throw failure("the input ends inside an object; expected ',' or '}'") }
            switch bytes[index] {
            case Byte.comma: index += 1
            case Byte.closeBrace:
                index += 1
                return .object(JSONObject(uniqueKeys: keys, values: values, index: keyIndex))
            default: throw failure("expected ',' or '}' in an object but found \(describeByte(at: index))")
            }
        }
    }

    /// Linear search while the object is small, a key index once it grows (so a hostile object with a
    /// million keys costs O(n), not O(n²)).
    private func isDuplicate(_ key: String, keys: [String], index: inout JSONKeyIndex?) -> Bool {
        if let index { return index.position(of: key, in: keys) != nil }
        if keys.count >= JSONObject.indexThreshold {
            index = JSONKeyIndex(keys)
            return index?.position(of: key, in: keys) != nil
        }
        return keys.contains(key)
    }

    // MARK: - Scalars

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let length = literal.utf8CodeUnitCount
        guard bytes.count - index >= length else { throw failure("unknown literal; expected \(literal)", at: start) }
        let base = literal.utf8Start
        for offset in 0..<length where bytes[index + offset] != base[offset] {
            throw failure("unknown literal; expected \(literal)", at: start)
        }
        index += length
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if bytes[index] == Byte.minus { index += 1 }
        guard isDigit(at: index) else { throw failure("a minus sign must be followed by a digit") }
        if bytes[index] == Byte.zero {
            index += 1
            if isDigit(at: index) { throw failure("numbers must not have leading zeros", at: start) }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == Byte.dot {
            index += 1
            guard isDigit(at: index) else { throw failure("a decimal point must be followed by a digit") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == Byte.plus || bytes[index] == Byte.minus { index += 1 }
            guard isDigit(at: index) else { throw failure("an exponent must have digits") }
            skipDigits()
        }
        guard index - start <= JSONParser.maxNumberLength else {
            throw failure("a number is longer than \(JSONParser.maxNumberLength) characters", at: start)
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return JSONNumber(validatedText: text)
    }

    @inline(__always) func isDigit(at position: Int) -> Bool {
        position < bytes.count && bytes[position] &- Byte.zero < 10
    }

    @inline(__always) mutating func skipDigits() {
        while index < bytes.count, bytes[index] &- Byte.zero < 10 { index += 1 }
    }

    @inline(__always) mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    // MARK: - Errors

    func failure(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? index, message: message)
    }

    func describeByte(at position: Int) -> String {
        guard position < bytes.count else { return "end of input" }
        let byte = bytes[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }
}

/// Byte constants used by the scanner and the canonical writer.
enum Byte {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
}
