import COpenSSL

/// SHA-256 of bytes that arrive in pieces (a file as it is read), with the digest of a leading part on the way.
///
/// The hasher takes a file's identity with it, and the reader takes it again of the bytes it reads, so that a file
/// rewritten in between is reported as changed, never recorded under a hash that does not cover it.
///
/// The state is a plain C struct copied by value; the class only gives it a fixed owner while bytes stream in.
public final class StreamingDigest {
    private var context = SHA256_CTX()
    private var absorbed: Int64 = 0
    private let prefixLength: Int64?
    /// The digest of the first `prefixLength` bytes, once that many have been absorbed.
    public private(set) var prefixHex: String?

    /// - Parameter prefixLength: Also take the digest of this many leading bytes (a file's earlier, shorter self).
    public init(prefixLength: Int64? = nil) {
        SHA256_Init(&context)
        self.prefixLength = prefixLength
        if prefixLength == 0 { prefixHex = Self.hex(of: context) }
    }

    /// Absorbs the next bytes.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, let base = bytes.baseAddress else { return }
        if let prefixLength, prefixHex == nil, absorbed + Int64(bytes.count) >= prefixLength {
            let head = Int(prefixLength - absorbed)
            SHA256_Update(&context, base, head)
            prefixHex = Self.hex(of: context)
            SHA256_Update(&context, base + head, bytes.count - head)
        } else {
            SHA256_Update(&context, base, bytes.count)
        }
        absorbed += Int64(bytes.count)
    }

    /// Bytes absorbed so far.
    public var byteCount: Int64 { absorbed }

    /// The digest of everything absorbed, in lower-case hex (more bytes may still follow).
    public var hex: String { Self.hex(of: context) }

    private static func hex(of context: SHA256_CTX) -> String {
        var copy = context
        let digest = [UInt8](unsafeUninitializedCapacity: 32) { buffer, initialized in
            SHA256_Final(buffer.baseAddress, &copy)
            initialized = 32
        }
        return MemoryDigest.hex(digest[...])
    }
}
