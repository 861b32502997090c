public import IAPFormats

/// Reads typed fields out of a JSON object with the path kept for error messages.
///
/// Two families: strict readers for V2 payloads (Apple sends JSON numbers and booleans), and lenient
/// readers for V1 bodies, which send almost everything as strings ("1700000000000", "true", "1").
///
/// A reader remembers which members were asked for, so that after decoding ``unreadFields()`` is exactly what the
/// payload carried that no decoder knows: Apple's new fields, kept instead of lost. No list of known keys exists
/// apart from the decoders themselves, so the two cannot drift.
///
/// The object is either a parsed ``JSONObject`` or a ``FlatJSONObject`` read in place (a signed payload of the plain
/// form Apple sends): every read gives the same value, or the same error, from either.
public struct FieldReader: Sendable {
    private enum Members: Sendable {
        case tree(JSONObject)
        case flat(FlatJSONObject)
    }

    private let members: Members
    /// Path of the object itself ("" at the top).
    public let path: String
    private let readPositions = ReadPositions()

    /// Creates a reader over an object found at `path`.
    public init(_ object: JSONObject, path: String = "") {
        members = .tree(object)
        self.path = path
    }

    /// Creates a reader over an object read in place (``FlatJSONObject``), found at `path`.
    public init(_ object: FlatJSONObject, path: String = "") {
        members = .flat(object)
        self.path = path
    }

    /// The members no read asked for (nulls left out, as everywhere), in input order.
    public func unreadFields() -> JSONObject {
        var unread: [(String, JSONValue)] = []
        switch members {
        case .tree(let object):
            for position in object.keys.indices where !readPositions.contains(position) {
                let value = object.values[position]
                if case .null = value { continue }
                unread.append((object.keys[position], value))
            }
        case .flat(let object):
            let positions = (0..<object.count).filter { !readPositions.contains($0) && !object.isNull(at: $0) }
            return positions.isEmpty ? JSONObject() : object.jsonObject(positions: positions)
        }
        return JSONObject(unread)
    }

    /// Counts `keys` as read without decoding them: fields the store keeps in another form (V1's text spellings
    /// of its millisecond dates), or must not keep.
    public func skip(_ keys: String...) {
        for key in keys {
            if let position = position(of: key) { readPositions.insert(position) }
        }
    }

    private func position(of key: String) -> Int? {
        switch members {
        case .tree(let object): return object.position(of: key)
        case .flat(let object):
            let found = object.position(of: key, from: readPositions.hint)
            if let found { readPositions.hint = found + 1 }
            return found
        }
    }

    /// Creates a reader over a JSON value that must be an object.
    public init(value: JSONValue, path: String) throws(ModelDecodingError) {
        guard case .object(let object) = value else {
            throw ModelDecodingError(
                keyPath: path.isEmpty ? "(document)" : path, problem: "is \(value.typeName), expected an object")
        }
        self.init(object, path: path)
    }

    func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func present(_ key: String) -> JSONValue? {
        guard let position = markRead(key) else { return nil }
        return value(at: position)
    }

    /// The position of `key`, noted as read; nil when the object lacks it (which needs no note: only members can be
    /// unread).
    @inline(__always)
    private func markRead(_ key: String) -> Int? {
        guard let position = position(of: key) else { return nil }
        readPositions.insert(position)
        return position
    }

    /// The integer of a member read in place, taken from its digits: the value `JSONNumber.int64` gives of the same
    /// text, without making the text a `String` and parsing that (about 1,000 instructions an integer, a dozen
    /// integers a notification). Nil for a tree, and for a member that holds no integer, which the caller then reads
    /// the general way, errors included.
    private func inPlaceInteger(at position: Int) -> Int64? {
        guard case .flat(let object) = members else { return nil }
        return object.int64(at: position)
    }

    /// The member at `position`, nil when it is `null`.
    private func value(at position: Int) -> JSONValue? {
        let value: JSONValue
        switch members {
        case .tree(let object): value = object.values[position]
        case .flat(let object): value = object.value(at: position)
        }
        if case .null = value { return nil }
        return value
    }

    // MARK: - Strict (V2)

    /// A string, or nil when absent/null.
    public func string(_ key: String) throws(ModelDecodingError) -> String? {
        guard let position = markRead(key) else { return nil }
        if case .flat(let object) = members, let range = object.stringRange(at: position) {
            return object.string(in: range)
        }
        guard let value = value(at: position) else { return nil }
        guard case .string(let text) = value else { throw mismatch(key, value, "a string") }
        return text
    }

    /// ``string(_:)`` for a long string such as a nested JWS: read in place, it is left where it lies instead of copied
    /// into a `String`. Absent, null and wrong types read exactly as ``string(_:)`` reads them.
    public func inPlaceString(_ key: String) throws(ModelDecodingError) -> InPlaceString? {
        // The key is looked up once, as in `object(_:)`; `string(_:)` stays as it is, the reader's hottest call.
        guard let position = markRead(key) else { return nil }
        if case .flat(let object) = members, let text = object.inPlaceString(at: position) { return text }
        guard let value = value(at: position) else { return nil }
        guard case .string(let text) = value else { throw mismatch(key, value, "a string") }
        return InPlaceString(text)
    }

    /// A required string.
    public func requiredString(_ key: String) throws(ModelDecodingError) -> String {
        guard let text = try string(key) else { throw ModelDecodingError(keyPath: keyPath(key), problem: "is missing") }
        return text
    }

    /// An integer. Fractional values are truncated (StoreKit Testing writes fractional milliseconds).
    public func int64(_ key: String) throws(ModelDecodingError) -> Int64? {
        guard let position = markRead(key) else { return nil }
        if let exact = inPlaceInteger(at: position) { return exact }
        guard let value = value(at: position) else { return nil }
        guard case .number(let number) = value else { throw mismatch(key, value, "an integer") }
        if let exact = number.int64 { return exact }
        if let double = number.double, double.isFinite, abs(double) < 9.0e15 {
            return Int64(double.rounded(.towardZero))
        }
        throw ModelDecodingError(
            keyPath: keyPath(key), problem: "is \(number.text), outside the range of a 64-bit integer")
    }

    /// A boolean.
    public func bool(_ key: String) throws(ModelDecodingError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard case .bool(let flag) = value else { throw mismatch(key, value, "a boolean") }
        return flag
    }

    /// A nested object, or nil when absent.
    public func object(_ key: String) throws(ModelDecodingError) -> FieldReader? {
        guard let position = markRead(key) else { return nil }
        // An object read in place is read in place again, not turned into a tree first.
        if case .flat(let object) = members, let nested = object.object(at: position) {
            return FieldReader(nested, path: keyPath(key))
        }
        guard let value = value(at: position) else { return nil }
        return try FieldReader(value: value, path: keyPath(key))
    }

    /// An array, or nil when absent.
    public func array(_ key: String) throws(ModelDecodingError) -> [JSONValue]? {
        guard let value = present(key) else { return nil }
        guard case .array(let items) = value else { throw mismatch(key, value, "an array") }
        return items
    }

    // MARK: - Lenient (V1)

    /// A string from a string or a number (V1 ids are sometimes numbers).
    public func lenientString(_ key: String) throws(ModelDecodingError) -> String? {
        guard let value = present(key) else { return nil }
        switch value {
        case .string(let text): return text
        case .number(let number): return number.text
        default: throw mismatch(key, value, "a string")
        }
    }

    /// An integer from a number or a decimal string ("1700000000000"). Empty strings count as absent.
    public func lenientInt64(_ key: String) throws(ModelDecodingError) -> Int64? {
        guard let value = present(key) else { return nil }
        switch value {
        case .number: return try int64(key)
        case .string(let text):
            let trimmed = text.trimmingSpaces
            if trimmed.isEmpty { return nil }
            if let exact = Int64(trimmed) { return exact }
            if let double = Double(trimmed), double.isFinite, abs(double) < 9.0e15 {
                return Int64(double.rounded(.towardZero))
            }
            throw ModelDecodingError(
                keyPath: keyPath(key), problem: "is \"\(text.prefix(40))\", expected a decimal integer")
        default: throw mismatch(key, value, "an integer")
        }
    }

    /// A boolean from any of Apple's V1 spellings: true/false, "true"/"false", 1/0, "1"/"0" (any case).
    public func lenientBool(_ key: String) throws(ModelDecodingError) -> Bool? {
        guard let value = present(key) else { return nil }
        switch value {
        case .bool(let flag): return flag
        case .number(let number):
            if number.int64 == 1 { return true }
            if number.int64 == 0 { return false }
        case .string(let text):
            switch text.trimmingSpaces.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            case "": return nil
            default: break
            }
        default: break
        }
        throw ModelDecodingError(
            keyPath: keyPath(key), problem: "is \(value.shortDescription), expected true/false or 1/0")
    }

    // MARK: - Bounded (both families)

    /// A whole number inside `range` (a price, a quantity, a percentage): a fraction such as `49.9` or a value
    /// outside the range is an error naming the range, never truncated or kept. `lenient` also takes V1's strings.
    public func count(
        _ key: String, in range: ClosedRange<Int64>, _ meaning: String, lenient: Bool = false
    ) throws(ModelDecodingError) -> Int64? {
        guard let position = markRead(key) else { return nil }
        if let exact = inPlaceInteger(at: position), range.contains(exact) { return exact }
        guard let value = value(at: position) else { return nil }
        let exact: Int64?
        switch value {
        case .number(let number): exact = number.int64
        case .string(let text) where lenient:
            let trimmed = text.trimmingSpaces
            if trimmed.isEmpty { return nil }
            exact = Int64(trimmed)
        default: throw mismatch(key, value, "a whole number")
        }
        guard let exact, range.contains(exact) else {
            throw ModelDecodingError(
                keyPath: keyPath(key),
                problem: "is \(value.shortDescription), outside what the App Store sends for \(meaning) "
                    + "(whole numbers \(range.lowerBound)…\(range.upperBound))", isOutOfBounds: true)
        }
        return exact
    }

    /// An instant in Unix milliseconds inside ``AppStoreBounds/date`` (fractional milliseconds are truncated, as
    /// StoreKit Testing writes them). `lenient` also takes V1's strings.
    public func date(_ key: String, lenient: Bool = false) throws(ModelDecodingError) -> Int64? {
        guard let millis = lenient ? try lenientInt64(key) : try int64(key) else { return nil }
        guard AppStoreBounds.date.contains(millis) else {
            throw ModelDecodingError(
                keyPath: keyPath(key),
                problem: "is \(millis), not an App Store date (Unix milliseconds \(AppStoreBounds.dateText))",
                isOutOfBounds: true)
        }
        return millis
    }

    private func mismatch(_ key: String, _ value: JSONValue, _ expected: String) -> ModelDecodingError {
        ModelDecodingError(keyPath: keyPath(key), problem: "is \(value.typeName), expected \(expected)")
    }
}

/// The members a ``FieldReader`` was asked for, by their position in the object. A reference, so the readers'
/// non-mutating accessors can note them; a reader lives inside one decode on one thread, which is what makes the
/// unchecked `Sendable` safe.
///
/// Positions, not key strings: the lookup that found the value already knows its position, so noting it is a bit
/// set. Keeping the key strings and scanning them for each read cost 9 % of decoding a notification (string
/// comparisons, quadratic in the keys read) in `iaplens-bench decode-archive`.
private final class ReadPositions: @unchecked Sendable {
    /// Where the next search of a ``FlatJSONObject`` starts: after the member found last.
    var hint = 0
    /// Positions 0–63 (Apple's payloads have 10 to 40 members).
    private var low: UInt64 = 0
    /// Positions from 64 on, for larger objects.
    private var high: Set<Int> = []

    func insert(_ position: Int) {
        if position < 64 { low |= 1 << UInt64(position) } else { high.insert(position) }
    }

    func contains(_ position: Int) -> Bool {
        position < 64 ? low & (1 << UInt64(position)) != 0 : high.contains(position)
    }
}

extension JSONValue {
    /// The JSON type name, for error messages.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    var shortDescription: String {
        switch self {
        case .string(let text): return "\"\(text.prefix(40))\""
        case .number(let number): return number.text
        case .bool(let flag): return flag ? "true" : "false"
        default: return typeName
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
