/// Recognises UTF-16 text among bytes that should be UTF-8, so that a reader refuses it with a sentence that says so
/// instead of a syntax error: the archive's documents (``DocumentShape``) and Apple's finance files both ask here.
public enum UTF16Detection {
    /// A UTF-16 byte-order mark (either order) at the start of the bytes: the first line of a UTF-16 file.
    public static func startsWithByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
    }

    /// A byte-order mark, or a NUL byte, which no UTF-8 text holds: a UTF-16 file's first line or any later one.
    public static func looksLikeUTF16(_ bytes: [UInt8]) -> Bool {
        startsWithByteOrderMark(bytes) || bytes.contains(0)
    }
}
