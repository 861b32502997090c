import IAPFormats

/// Signs payloads as compact JWS with header `{"alg":"ES256","x5c":[leaf, intermediate, root]}` (standard
/// base64 DER in `x5c`, base64url without padding for the three segments), deterministically (RFC 6979 nonce),
/// so a simulator with a fixed seed writes byte-identical files.
///
/// Cheap to copy and safe to use from many threads at once: the key is parsed once and only read, and every
/// signature uses its own OpenSSL scratch objects.
public struct JWSSigner: Sendable {
    private let key: Result<ECSigningKey, SigningError>
    private let defaultX5C: [String]
    private let standardHeaderSegment: String

    /// Prepares a signer for the chain's leaf key; the standard header segment is encoded once here.
    public init(chain: TestCertificateChain) {
        key = Result { () throws(SigningError) in try ECSigningKey(privateScalar: chain.leafPrivateScalar, curve: .p256)
        }
        defaultX5C = chain.x5c
        standardHeaderSegment = Base64Encoding.url(Array(JWSHeaderOverride().json(defaultX5C: chain.x5c).utf8))
    }

    /// Signs `payload` (usually JSON text) with the standard header.
    public func sign(payload: [UInt8]) throws(SigningError) -> String {
        try sign(payload: payload, headerSegment: standardHeaderSegment)
    }

    /// Signs `payload` under a non-standard header; the signature is still a valid ES256 signature by the leaf,
    /// so only the header rule under test fails verification.
    public func sign(payload: [UInt8], header: JWSHeaderOverride) throws(SigningError) -> String {
        let segment = Base64Encoding.url(Array(header.json(defaultX5C: defaultX5C).utf8))
        return try sign(payload: payload, headerSegment: segment)
    }

    private func sign(payload: [UInt8], headerSegment: String) throws(SigningError) -> String {
        let key = try key.get()
        let signingInput = headerSegment + "." + Base64Encoding.url(payload)
        let digest = Digest.sha256.hash(Array(signingInput.utf8))
        let (r, s) = try key.sign(digest: digest)
        return signingInput + "." + Base64Encoding.url(r + s)
    }
}
