import IAPFormats

/// SHA-256 of a JWS signing input, and the identity of a JWS derived from it.
enum SigningInputDigest {
    static func sha256(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        MemoryDigest.sha256(UnsafeRawBufferPointer(bytes))
    }

    static func identity(digest: [UInt8], signatureSegment: String) -> String {
        var segment = signatureSegment
        let hash = digest.withUnsafeBytes { digestBytes in
            segment.withUTF8 { signature in
                withUnsafeBytes(of: UInt8(ascii: ".")) { dot in
                    MemoryDigest.sha256(digestBytes, dot, UnsafeRawBufferPointer(signature))
                }
            }
        }
        return MemoryDigest.hex(hash[...])
    }
}
