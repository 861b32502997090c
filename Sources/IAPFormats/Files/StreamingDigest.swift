import CISAL
import COpenSSL

/// SHA-256 of bytes that arrive in pieces (a file as it is read), with the digest of a leading part on the way, and
/// a CRC-64 of the same bytes.
///
/// The CRC-64 is how the reader checks that the bytes it reads are the bytes a file's hash was taken of (a file
/// rewritten in between is reported as changed): it detects any change but a deliberate one, which needs no race to
/// make, at a fraction of SHA-256's cost; hashing every archive byte a second time was about 1.5 µs of CPU per
/// notification (Documentation/Performance.md, "Decoding counted in instructions").
///
/// The state is a plain C struct copied by value; the class only gives it a fixed owner while bytes stream in.
public final class StreamingDigest {
    private var context = SHA256_CTX()
    private var crc: UInt64 = 0
    private var absorbed: Int64 = 0
    private let prefixLength: Int64?
    private let takesSHA256: Bool
    /// The digest of the first `prefixLength` bytes, once that many have been absorbed.
    public private(set) var prefixHex: String?

    /// - Parameters:
    ///   - prefixLength: Also take the digest of this many leading bytes (a file's earlier, shorter self).
    ///   - sha256: False to take only the CRC-64 (``checksum``); ``hex`` and ``prefixHex`` then stay nil.
    public init(prefixLength: Int64? = nil, sha256: Bool = true) {
        SHA256_Init(&context)
        self.prefixLength = sha256 ? prefixLength : nil
        takesSHA256 = sha256
        if sha256, prefixLength == 0 { prefixHex = Self.hex(of: context) }
    }

    /// Absorbs the next bytes.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, let base = bytes.baseAddress else { return }
        crc = crc64_ecma_refl(crc, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
        if !takesSHA256 {
            absorbed += Int64(bytes.count)
            return
        }
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

    /// The digest of everything absorbed, in lower-case hex (more bytes may still follow); nil without SHA-256.
    public var hex: String? { takesSHA256 ? Self.hex(of: context) : nil }

    /// The CRC-64 (ECMA-182, reflected) of everything absorbed.
    public var checksum: UInt64 { crc }

    private static func hex(of context: SHA256_CTX) -> String {
        var copy = context
        let digest = [UInt8](unsafeUninitializedCapacity: 32) { buffer, initialized in
            SHA256_Final(buffer.baseAddress, &copy)
            initialized = 32
        }
        return MemoryDigest.hex(digest[...])
    }
}
