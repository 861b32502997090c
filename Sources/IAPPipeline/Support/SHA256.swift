import IAPFormats

/// SHA-256 as lower-case hex: the identity of V1 bodies, page entries and raw documents.
enum SHA256 {
    static func hex(_ bytes: [UInt8]) -> String { MemoryDigest.sha256Hex(bytes) }

    static func hex(_ text: String) -> String { MemoryDigest.sha256Hex(Array(text.utf8)) }
}
