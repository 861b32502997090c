/// SHA-256 of files, streamed through a 1 MiB buffer so memory stays flat for any file size.
public enum FileDigest {
    /// Buffer size used while hashing.
    static let bufferSize = 1 << 20

    /// Returns the lower-case hexadecimal SHA-256 of the file's bytes (as stored, not decompressed).
    /// - Throws: ``FileAccessError`` when the file cannot be opened or read.
    public static func sha256Hex(ofFileAt path: String) throws(FileAccessError) -> String {
        try digest(ofFileAt: path, prefixLength: nil).sha256
    }

    /// A file's SHA-256 and size as hashed, and the SHA-256 of its first `prefixLength` bytes when it has that many:
    /// whether the file is an earlier file of the same path with lines appended.
    /// - Throws: ``FileAccessError`` when the file cannot be opened or read.
    public static func digest(ofFileAt path: String, prefixLength: Int64?) throws(FileAccessError) -> FileDigestResult {
        let digest = StreamingDigest(prefixLength: prefixLength)
        let file = try POSIXFile(path: path, digest: digest)
        defer { file.release() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while try file.fill(buffer) > 0 {}
        return FileDigestResult(
            sha256: digest.hex, byteCount: digest.byteCount, prefixSHA256: digest.prefixHex)
    }

    /// Lower-case hexadecimal SHA-256 of bytes in memory (e.g. a canonical V1 body).
    public static func sha256Hex(of bytes: [UInt8]) -> String {
        MemoryDigest.sha256Hex(bytes)
    }
}

/// What ``FileDigest/digest(ofFileAt:prefixLength:)`` found.
public struct FileDigestResult: Sendable, Equatable {
    /// SHA-256 of the bytes hashed, lower-case hex.
    public let sha256: String
    /// How many bytes were hashed (the file's size at that moment).
    public let byteCount: Int64
    /// SHA-256 of the first `prefixLength` bytes; nil when the file is shorter or none was asked.
    public let prefixSHA256: String?

    public init(sha256: String, byteCount: Int64, prefixSHA256: String?) {
        self.sha256 = sha256
        self.byteCount = byteCount
        self.prefixSHA256 = prefixSHA256
    }
}
