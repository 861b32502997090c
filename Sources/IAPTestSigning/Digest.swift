internal import COpenSSL

/// One-shot hashes and HMAC over the hashes the test PKI uses.
///
/// Uses OpenSSL's low-level digest functions: they need no provider fetch per call, which matters when the
/// RFC 6979 nonce costs about a dozen HMAC blocks per signature.
enum Digest {
    case sha1
    case sha256
    case sha384

    /// Output length in bytes.
    var length: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        }
    }

    /// Internal block length in bytes, which HMAC pads its key to.
    var blockLength: Int { self == .sha384 ? 128 : 64 }

    /// Hash of the concatenation of `parts`.
    func hash(_ parts: [UInt8]...) -> [UInt8] { hash(parts: parts) }

    /// Hash of the concatenation of `parts`.
    func hash(parts: [[UInt8]]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: length)
        switch self {
        case .sha1:
            var context = SHA_CTX()
            SHA1_Init(&context)
            for part in parts { part.withUnsafeBytes { _ = SHA1_Update(&context, $0.baseAddress, $0.count) } }
            SHA1_Final(&output, &context)
        case .sha256:
            var context = SHA256_CTX()
            SHA256_Init(&context)
            for part in parts { part.withUnsafeBytes { _ = SHA256_Update(&context, $0.baseAddress, $0.count) } }
            SHA256_Final(&output, &context)
        case .sha384:
            var context = SHA512_CTX()
            SHA384_Init(&context)
            for part in parts { part.withUnsafeBytes { _ = SHA384_Update(&context, $0.baseAddress, $0.count) } }
            SHA384_Final(&output, &context)
        }
        return output
    }

    /// HMAC (RFC 2104) with this hash over the concatenation of `parts`.
    func hmac(key: [UInt8], _ parts: [UInt8]...) -> [UInt8] {
        var block = key.count > blockLength ? hash(key) : key
        block += [UInt8](repeating: 0, count: blockLength - block.count)
        let inner = hash(parts: [block.map { $0 ^ 0x36 }] + parts)
        return hash(block.map { $0 ^ 0x5C }, inner)
    }
}
