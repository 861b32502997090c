import IAPFormats

/// SHA-256 as lower-case hex: the identity of V1 bodies, page entries and raw documents.
enum SHA256 {
    static func hex(_ bytes: [UInt8]) -> String { FileDigest.sha256Hex(of: bytes) }

    static func hex(_ text: String) -> String { FileDigest.sha256Hex(of: Array(text.utf8)) }
}
