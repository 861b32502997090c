import COpenSSL

/// SHA-256 of bytes already in memory, through OpenSSL's direct SHA-256 functions on a stack context.
///
/// Ingest hashes about five buffers per notification (each JWS's signing input, then short identities).
/// OpenSSL 3's one-shot `SHA256()` looks the algorithm up in the provider registry on every call (a lock
/// and a hash-table probe), which cost more than hashing a 120-byte identity; these functions do not.
public enum MemoryDigest {
    /// The 32-byte SHA-256 of `parts`, hashed in order as if concatenated.
    public static func sha256(_ parts: UnsafeRawBufferPointer...) -> [UInt8] {
        var context = SHA256_CTX()
        SHA256_Init(&context)
        for part in parts where part.count > 0 {
            SHA256_Update(&context, part.baseAddress, part.count)
        }
        return [UInt8](unsafeUninitializedCapacity: 32) { buffer, initialized in
            SHA256_Final(buffer.baseAddress, &context)
            initialized = 32
        }
    }

    /// Lower-case hexadecimal SHA-256 of `bytes`.
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { hex(sha256($0)[...]) }
    }

    /// Lower-case hexadecimal spelling of `bytes`.
    public static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            var position = 0
            for byte in bytes {
                text[position] = hexDigit(byte >> 4)
                text[position + 1] = hexDigit(byte & 0x0F)
                position += 2
            }
            return position
        }
    }

    @inline(__always) private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
