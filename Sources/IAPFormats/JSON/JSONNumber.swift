/// A JSON number kept as its exact literal text, so no precision is lost and canonical output is byte-stable.
public struct JSONNumber: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The literal exactly as written in the input, e.g. `"1700000000000"`, `"-0.5"`, `"1e400"`.
    public let text: String

    /// Creates a number from a literal that the parser has already validated.
    init(validatedText: String) {
        self.text = validatedText
    }

    /// Creates a number from an integer.
    public init(_ value: Int64) {
        self.text = String(value)
    }

    /// Creates a number from a literal, or returns `nil` when `text` is not a valid JSON number literal.
    public init?(text: String) {
        guard case .number(let number)? = try? JSONParser.parse(text) else { return nil }
        self = number
    }

    /// The value as an `Int64` when the literal is an integer (no fraction, no exponent) that fits; otherwise `nil`.
    ///
    /// `1.0` and `1e3` give `nil` on purpose: Apple sends ids, prices and timestamps as plain integers, and a
    /// fractional spelling there is a sign of a damaged or hand-edited document that callers should notice.
    public var int64: Int64? {
        for byte in text.utf8 where byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        {
            return nil
        }
        return Int64(text)
    }

    /// The value as a finite `Double` (possibly rounded); `nil` when it overflows, as `1e400` does.
    public var double: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The literal text.
    public var description: String { text }
}
