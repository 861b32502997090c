#if canImport(Glibc)
    import Glibc
#endif

/// A JSON object read in one pass without building a tree: its members stay byte ranges of the document until a
/// decoder asks for one, and only then become a ``JSONValue``.
///
/// Why: Apple's signed payloads are flat objects of short strings, integers and booleans (a notification's `data` is
/// the one object inside one). Building a ``JSONObject`` for each — a `String` per key, a key index, arrays that are
/// freed again at once — cost about a third of decoding a notification outside the signature checks
/// (Documentation/Performance.md, "Apple's payloads read in place").
///
/// It takes only the plain form those payloads have, where reading in place is certainly the same as parsing:
/// keys and strings of printable ASCII without escapes, integers of at most 18 digits, `true`, `false`, `null`, and
/// objects of the same kind nested at most ``maxNesting`` deep, with no key twice. Anything else (an escape,
/// non-ASCII text, a fraction, an array, a duplicate key, a syntax error) makes ``parse(_:maxStringBytes:)`` return
/// nil, and the caller parses the bytes with ``JSONParser``, whose tree and error messages stay the reference.
public struct FlatJSONObject: Sendable {
    /// What a member's value is; its text is `bytes[valueStart..<valueEnd]` (for strings, without the quotes).
    enum Kind: UInt8, Sendable {
        case string, integer, `true`, `false`, null, object
    }

    struct Member: Sendable {
        let keyStart: Int
        let keyEnd: Int
        let valueStart: Int
        let valueEnd: Int
        let kind: Kind
        /// For an object: its index in ``children``.
        let child: Int
    }

    /// Objects inside objects: a notification's `data`. Deeper nesting falls back to the tree.
    public static let maxNesting = 2

    /// The whole document, shared by the object and the objects inside it.
    let bytes: [UInt8]
    let members: [Member]
    let children: [FlatJSONObject]
    /// Two bits per key (``keyBits(length:first:last:)``): a key whose bits are not all set is not a member, which
    /// settles most absent keys without a scan.
    let keyFilter: UInt64

    /// Reads `bytes` when they are one flat object followed by nothing but whitespace; nil otherwise (see the type).
    /// - Parameter maxStringBytes: strings longer than this are left to the tree parser, which rejects them.
    public static func parse(_ bytes: [UInt8], maxStringBytes: Int = JSONParser.defaultMaxStringBytes)
        -> FlatJSONObject?
    {
        bytes.withUnsafeBytes { raw -> FlatJSONObject? in
            var reader = FlatReader(bytes: raw, maxStringBytes: maxStringBytes)
            reader.skipWhitespace()
            guard let object = reader.object(bytes, depth: 1) else { return nil }
            reader.skipWhitespace()
            return reader.index == raw.count ? object : nil
        }
    }

    /// The number of members.
    public var count: Int { members.count }

    /// The member named `key`, searched from `hint` on (decoders ask for members in about the order Apple writes
    /// them, so the search usually ends at once).
    ///
    /// A decoder asks for a dozen optional keys a notification that Apple leaves out, and each used to be a scan of
    /// every member: ``keyFilter`` answers most of them at once (Documentation/Performance.md, "Decoding counted in instructions").
    public func position(of key: String, from hint: Int) -> Int? {
        // Read through `utf8`, not `withUTF8`, which needs a mutable copy of the key: a retain and a release for
        // each of some sixty look-ups per document (Documentation/Performance.md, "Retains, copies and purges").
        if let found = key.utf8.withContiguousStorageIfAvailable({ position(ofUTF8: $0, from: hint) }) { return found }
        var key = key
        return key.withUTF8 { position(ofUTF8: $0, from: hint) }
    }

    private func position(ofUTF8 wanted: UnsafeBufferPointer<UInt8>, from hint: Int) -> Int? {
        let length = wanted.count
        let bits =
            length == 0 ? Self.emptyKeyBits : Self.keyBits(length: length, first: wanted[0], last: wanted[length - 1])
        guard keyFilter & bits == bits else { return nil }
        return bytes.withUnsafeBufferPointer { all -> Int? in
            let count = members.count
            guard count > 0, let base = all.baseAddress else { return nil }
            var position = hint < count ? hint : 0
            for _ in 0..<count {
                let member = members[position]
                // An empty key has no buffer to compare (its base address may be nil): the lengths decide.
                if member.keyEnd - member.keyStart == wanted.count,
                    wanted.baseAddress.map({ memcmp(base + member.keyStart, $0, wanted.count) == 0 }) ?? true
                {
                    return position
                }
                position = position + 1 == count ? 0 : position + 1
            }
            return nil
        }
    }

    /// The filter bits of a key of `length` bytes (at least one) that begins with `first` and ends with `last`.
    @inline(__always)
    static func keyBits(length: Int, first: UInt8, last: UInt8) -> UInt64 {
        let mixed =
            (UInt64(truncatingIfNeeded: length) << 16 | UInt64(first) << 8 | UInt64(last)) &* 0x9E37_79B9_7F4A_7C15
        return 1 << (mixed >> 58) | 1 << ((mixed >> 52) & 63)
    }

    /// The filter bits of the empty key.
    static let emptyKeyBits: UInt64 = 1

    /// The key at `position`.
    public func key(at position: Int) -> String {
        let member = members[position]
        return String(decoding: bytes[member.keyStart..<member.keyEnd], as: UTF8.self)
    }

    /// True when the member at `position` is `null`.
    public func isNull(at position: Int) -> Bool { members[position].kind == .null }

    /// The object held by the member at `position`, if it holds one.
    public func object(at position: Int) -> FlatJSONObject? {
        let member = members[position]
        return member.kind == .object ? children[member.child] : nil
    }

    /// Where the text of the string held by the member at `position` lies in the document (without the quotes); nil
    /// when the member holds no string. The text is exactly the string's value: the plain form has no escapes.
    public func stringRange(at position: Int) -> Range<Int>? {
        let member = members[position]
        return member.kind == .string ? member.valueStart..<member.valueEnd : nil
    }

    /// The text at `range` of the document (a range ``stringRange(at:)`` gave) as a `String`.
    public func string(in range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The string held by the member at `position`, left where it lies in the document; nil when it holds none.
    public func inPlaceString(at position: Int) -> InPlaceString? {
        stringRange(at: position).map { InPlaceString(document: bytes, range: $0) }
    }

    /// The integer held by the member at `position`, or nil when it holds none (at most 18 digits always fit).
    public func int64(at position: Int) -> Int64? {
        let member = members[position]
        guard member.kind == .integer else { return nil }
        var value: Int64 = 0
        var index = member.valueStart
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        while index < member.valueEnd {
            value = value * 10 + Int64(bytes[index] &- UInt8(ascii: "0"))
            index += 1
        }
        return negative ? -value : value
    }

    /// The member at `position` as the value ``JSONParser`` would have made of it.
    public func value(at position: Int) -> JSONValue {
        let member = members[position]
        switch member.kind {
        case .string: return .string(string(in: member.valueStart..<member.valueEnd))
        case .integer:
            let text = String(decoding: bytes[member.valueStart..<member.valueEnd], as: UTF8.self)
            return .number(JSONNumber(validatedText: text))
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .null: return .null
        case .object: return .object(children[member.child].jsonObject())
        }
    }

    /// The whole object as ``JSONParser`` would have made it.
    public func jsonObject() -> JSONObject {
        JSONObject(
            uniqueKeys: members.indices.map(key(at:)), values: members.indices.map(value(at:)), index: nil)
    }

    /// The members at `positions` (in increasing order), as an object of their own. The keys are distinct, as in
    /// every flat object, so no key is looked up while it is built.
    public func jsonObject(positions: [Int]) -> JSONObject {
        JSONObject(uniqueKeys: positions.map(key(at:)), values: positions.map(value(at:)), index: nil)
    }
}

/// The scanner behind ``FlatJSONObject/parse(_:maxStringBytes:)``: every method returns nil (or false) at the
/// first byte outside the flat form, never an error of its own.
private struct FlatReader {
    let bytes: UnsafeRawBufferPointer
    let maxStringBytes: Int
    var index = 0

    init(bytes: UnsafeRawBufferPointer, maxStringBytes: Int) {
        self.bytes = bytes
        self.maxStringBytes = maxStringBytes
    }

    mutating func object(_ document: [UInt8], depth: Int) -> FlatJSONObject? {
        guard depth <= FlatJSONObject.maxNesting, take(UInt8(ascii: "{")) else { return nil }
        var members: [FlatJSONObject.Member] = []
        members.reserveCapacity(depth == 1 ? 32 : 8)
        var children: [FlatJSONObject] = []
        var keyFilter: UInt64 = 0
        skipWhitespace()
        if take(UInt8(ascii: "}")) {
            return FlatJSONObject(bytes: document, members: [], children: [], keyFilter: 0)
        }
        while true {
            skipWhitespace()
            guard take(UInt8(ascii: "\"")), let key = plainString() else { return nil }
            let bits =
                key.isEmpty
                ? FlatJSONObject.emptyKeyBits
                : FlatJSONObject.keyBits(
                    length: key.count, first: bytes[key.lowerBound], last: bytes[key.upperBound - 1])
            // Only a key whose bits are all set already can be a duplicate.
            if keyFilter & bits == bits, isDuplicate(key, in: members) { return nil }
            keyFilter |= bits
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            guard index < bytes.count else { return nil }
            let start = index
            let kind: FlatJSONObject.Kind
            var range = start..<start
            var child = -1
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = plainString() else { return nil }
                (kind, range) = (.string, text)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard integer() else { return nil }
                (kind, range) = (.integer, start..<index)
            case UInt8(ascii: "t"):
                guard literal("true") else { return nil }
                kind = .true
            case UInt8(ascii: "f"):
                guard literal("false") else { return nil }
                kind = .false
            case UInt8(ascii: "n"):
                guard literal("null") else { return nil }
                kind = .null
            case UInt8(ascii: "{"):
                guard let nested = object(document, depth: depth + 1) else { return nil }
                child = children.count
                children.append(nested)
                kind = .object
            default:
                return nil
            }
            members.append(
                FlatJSONObject.Member(
                    keyStart: key.lowerBound, keyEnd: key.upperBound, valueStart: range.lowerBound,
                    valueEnd: range.upperBound, kind: kind, child: child))
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { return nil }
            return FlatJSONObject(bytes: document, members: members, children: children, keyFilter: keyFilter)
        }
    }

    /// The range of a string's text, its opening quote already taken: printable ASCII up to the closing quote.
    private mutating func plainString() -> Range<Int>? {
        let start = index
        index = PlainASCII.end(of: bytes, from: index)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard index - start <= maxStringBytes else { return nil }
                index += 1
                return start..<(index - 1)
            }
            // An escape, a control character (invalid) or non-ASCII text (to be validated): the tree's job.
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return nil }
            index += 1
        }
        return nil
    }

    /// An optional minus and 1 to 18 digits, without a leading zero, a fraction or an exponent.
    private mutating func integer() -> Bool {
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digits = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        let count = index - digits
        guard count >= 1, count <= 18, !(count > 1 && bytes[digits] == UInt8(ascii: "0")) else { return false }
        if index < bytes.count {
            let next = bytes[index]
            if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return false }
        }
        return true
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    private func isDuplicate(_ key: Range<Int>, in members: [FlatJSONObject.Member]) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        for member in members where member.keyEnd - member.keyStart == key.count {
            if key.isEmpty || memcmp(base + member.keyStart, base + key.lowerBound, key.count) == 0 { return true }
        }
        return false
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}
