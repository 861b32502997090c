/// Why a document (or the rest of a file) could not be read; the raw value is the reason code stored with quarantined documents.
public enum FormatFailureReason: String, Sendable, CaseIterable {
    /// The file could not be opened or read.
    case unreadableFile = "unreadable_file"
    /// The gzip data is corrupt or truncated, or a `.gz` file is not gzip.
    case badGzip = "bad_gzip"
    /// A line (or a whole `.json` file) is longer than the reader's limit.
    case documentTooLarge = "document_too_large"
    /// The document is not strict JSON.
    case badJSON = "bad_json"
    /// The document is JSON but matches none of the accepted shapes.
    case unknownShape = "unknown_shape"
    /// The document has a known shape, but a required field has the wrong type or value.
    case badField = "bad_field"
}

/// A document-level reading failure: a reason code and a sentence a user can act on.
public struct FormatFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reason code.
    public let reason: FormatFailureReason
    /// What went wrong, as a sentence.
    public let message: String

    /// Creates a failure.
    public init(reason: FormatFailureReason, message: String) {
        self.reason = reason
        self.message = message
    }

    /// The message as a clause to embed in a longer sentence: without its final period.
    public var clause: String { message.hasSuffix(".") ? String(message.dropLast()) : message }

    /// The message followed by the reason code in brackets, e.g. `"… [bad_json]"`.
    public var description: String { "\(message) [\(reason.rawValue)]" }
}
