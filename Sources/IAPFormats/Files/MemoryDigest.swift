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

    /// SHA-256 state after some leading bytes, to finish with different endings.
    ///
    /// Every JWS signed by the same certificate chain starts its signing input with the same ~2.9 KB header
    /// segment, 40 % of the bytes ingest hashes; hashing that prefix once per chain and resuming from its state
    /// gives exactly the digest of the whole input (SHA-256 absorbs bytes strictly in order).
    public struct Prefix: @unchecked Sendable {
        // @unchecked: a plain C struct of integers and bytes, copied by value, never shared by reference.
        private let context: SHA256_CTX

        /// The state after absorbing `parts` in order.
        public init(_ parts: UnsafeRawBufferPointer...) {
            var context = SHA256_CTX()
            SHA256_Init(&context)
            for part in parts where part.count > 0 {
                SHA256_Update(&context, part.baseAddress, part.count)
            }
            self.context = context
        }

        /// The 32-byte SHA-256 of the prefix followed by `rest`.
        public func sha256(continuingWith rest: UnsafeRawBufferPointer) -> [UInt8] {
            var context = self.context
            if rest.count > 0 { SHA256_Update(&context, rest.baseAddress, rest.count) }
            return [UInt8](unsafeUninitializedCapacity: 32) { buffer, initialized in
                SHA256_Final(buffer.baseAddress, &context)
                initialized = 32
            }
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
