/// A reason why bytes are not one strict JSON value, with the byte offset where the problem was found.
///
/// The message is a full sentence; `description` prefixes the offset so a user can find the spot.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Zero-based byte offset into the parsed input where the problem was detected.
    public let offset: Int
    /// What is wrong, as a sentence.
    public let message: String

    /// Creates an error at `offset` with a sentence describing the problem.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// `"invalid JSON at byte <offset>: <message>"`.
    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}
