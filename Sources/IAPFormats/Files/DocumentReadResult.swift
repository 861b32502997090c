/// One item read from an input file: a document's bytes, or why a line (or the rest of the file) could not be read.
public enum DocumentReadResult: Sendable, Equatable {
    /// A document's bytes (without line terminator) and its 1-based line number (1 for `.json` files).
    case document(line: Int, bytes: [UInt8])
    /// A failure at a 1-based line: the line itself for ``FormatFailureReason/documentTooLarge``, the line where
    /// reading broke for ``FormatFailureReason/badGzip`` and ``FormatFailureReason/unreadableFile`` (1 when nothing was read).
    case failure(line: Int, FormatFailure)
}
