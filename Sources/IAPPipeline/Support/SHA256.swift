import COpenSSL

/// SHA-256 as lower-case hex: the identity of V1 bodies, page entries and raw documents.
enum SHA256 {
    static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let input = Array(bytes)
        input.withUnsafeBufferPointer { buffer in
            digest.withUnsafeMutableBufferPointer { output in
                _ = COpenSSL.SHA256(buffer.baseAddress, buffer.count, output.baseAddress)
            }
        }
        return hexString(digest)
    }

    static func hex(_ text: String) -> String { hex(Array(text.utf8)) }

    private static let digits = Array("0123456789abcdef".utf8)

    static func hexString(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
