/// A JSON string value that may still lie in the document it was read from (``FlatJSONObject``), so that a long one
/// (a JWS inside a notification's payload, 5 KB; the notification's own JWS in its line, 10 KB) is not copied into a
/// `String` unless something asks for one (Documentation/Performance.md, "AVX2 text kernels").
///
/// Equal when the texts are equal, wherever each lies.
public struct InPlaceString: Sendable, Equatable, CustomStringConvertible {
    private enum Storage: Sendable {
        case string(String)
        case slice([UInt8], Range<Int>)
    }

    private let storage: Storage

    /// A string of its own.
    public init(_ string: String) {
        storage = .string(string)
    }

    /// `document[range]`, which must be valid UTF-8 (``FlatJSONObject`` keeps only printable ASCII in place).
    public init(document: [UInt8], range: Range<Int>) {
        storage = .slice(document, range)
    }

    /// The text as a `String` (a copy, for a slice).
    public var string: String {
        switch storage {
        case .string(let string): return string
        case .slice(let bytes, let range): return String(decoding: bytes[range], as: UTF8.self)
        }
    }

    public var description: String { string }

    /// The length in UTF-8 bytes.
    public var utf8Count: Int {
        switch storage {
        case .string(let string): return string.utf8.count
        case .slice(_, let range): return range.count
        }
    }

    /// Calls `body` with the text's UTF-8 bytes, copying nothing for a slice.
    public func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        switch storage {
        case .string(var string): return try string.withUTF8(body)
        case .slice(let bytes, let range):
            return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
        }
    }

    public static func == (lhs: InPlaceString, rhs: InPlaceString) -> Bool {
        lhs.withUTF8 { left in rhs.withUTF8 { right in left.elementsEqual(right) } }
    }
}
