import IAPFormats

/// The identity of a JWS, derived from its signing-input digest (computed in ``CompactJWS/parse(_:)``).
enum SigningInputDigest {
    static func identity(digest: [UInt8], signatureSegment: UnsafeBufferPointer<UInt8>) -> String {
        let hash = digest.withUnsafeBytes { digestBytes in
            withUnsafeBytes(of: UInt8(ascii: ".")) { dot in
                MemoryDigest.sha256(digestBytes, dot, UnsafeRawBufferPointer(signatureSegment))
            }
        }
        return MemoryDigest.hex(hash[...])
    }
}
