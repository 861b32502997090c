import IAPFormats

/// The identity of a JWS, derived from its signing-input digest (computed in ``CompactJWS/parse(_:)``).
enum SigningInputDigest {
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
