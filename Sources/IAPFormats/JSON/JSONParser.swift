/// A strict, hand-written JSON parser working directly on UTF-8 bytes (RFC 8259, with extra limits for hostile input).
///
/// Rejected, each with a ``JSONParseError`` giving the byte offset: invalid UTF-8, duplicate keys in an object,
/// nesting deeper than `maxDepth`, unescaped control characters in strings, invalid escapes and unpaired surrogates,
/// anything after the value except whitespace, numbers with leading zeros or longer than 64 characters, and strings
/// longer than `maxStringBytes`. A byte-order mark is not JSON and is rejected too (``DocumentReader`` strips one at
/// the start of a file).
public enum JSONParser {
    /// Default nesting limit: 64 levels of arrays and objects.
    public static let defaultMaxDepth = 64
    /// Default limit on one string's encoded length: 16 MiB.
    public static let defaultMaxStringBytes = 16 << 20
    /// Longest accepted number literal, in characters.
    public static let maxNumberLength = 64

    /// Parses exactly one JSON value from raw bytes (surrounding whitespace allowed).
    /// - Parameters:
    ///   - bytes: UTF-8 encoded JSON.
    ///   - maxDepth: Deepest accepted nesting of arrays and objects; a top-level array is depth 1.
    ///   - maxStringBytes: Longest accepted string, counted in encoded bytes between the quotes.
    /// - Returns: The parsed value.
    /// - Throws: ``JSONParseError`` with the offset of the first problem.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer,
        maxDepth: Int = defaultMaxDepth,
        maxStringBytes: Int = defaultMaxStringBytes
    ) throws(JSONParseError) -> JSONValue {
        var scanner = JSONScanner(bytes: bytes, maxDepth: maxDepth, maxStringBytes: maxStringBytes)
        return try scanner.parseDocument()
    }

    /// Parses exactly one JSON value from a byte array. See ``parse(_:maxDepth:maxStringBytes:)-(UnsafeRawBufferPointer,_,_)``.
    public static func parse(
        _ bytes: [UInt8],
        maxDepth: Int = defaultMaxDepth,
        maxStringBytes: Int = defaultMaxStringBytes
    ) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) -> JSONValue in
                try parse(raw, maxDepth: maxDepth, maxStringBytes: maxStringBytes)
            }
        }
        return try result.get()
    }

    /// Parses exactly one JSON value from any collection of bytes (contiguous ones are not copied).
    public static func parse<Bytes: Collection>(
        _ bytes: Bytes,
        maxDepth: Int = defaultMaxDepth,
        maxStringBytes: Int = defaultMaxStringBytes
    ) throws(JSONParseError) -> JSONValue where Bytes.Element == UInt8 {
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) -> JSONValue in
                try parse(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth, maxStringBytes: maxStringBytes)
            }
        }
        if let contiguous { return try contiguous.get() }
        return try parse(Array(bytes), maxDepth: maxDepth, maxStringBytes: maxStringBytes)
    }

    /// Parses exactly one JSON value from text.
    public static func parse(
        _ text: String,
        maxDepth: Int = defaultMaxDepth,
        maxStringBytes: Int = defaultMaxStringBytes
    ) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth, maxStringBytes: maxStringBytes)
    }
}
