import IAPFormats
import Synchronization

/// Verifies compact JWS the way Apple's App Store Server Library does with online checks off: the certificate
/// path is validated at the payload's `signedDate`, so archived payloads still verify after Apple rotates keys.
///
/// Safe to call from many threads at once: the trust store is read-only, each validation uses its own OpenSSL
/// context, and the chain cache is locked.
public final class JWSVerifier: Sendable {
    private let validator: CertificatePathValidator
    private let cache: ChainCache
    private let certificates = ParsedCertificates(capacity: 64)
    /// SHA-256 fingerprints of the configured roots, in the order given.
    public let trustedRootFingerprints: [String]
    private let checks = Atomic<Int>(0)

    /// How many signatures this verifier has checked (each one P-256 verify): the benchmark divides the machine's
    /// verify rate by it per document instead of assuming a count.
    public var signatureChecks: Int { checks.load(ordering: .relaxed) }

    /// Builds the trust store once from the roots; throws if the list is empty or OpenSSL rejects a root.
    /// - Parameter keyTableAfter: how many signatures a leaf key checks through EVP before its table of multiples is
    ///   built, with which it checks the rest in about a third of the time (``LeafPublicKey``); 0 builds it at once.
    public init(
        trustedRoots: [TrustedRoot], keyTableAfter: Int = JWSVerifier.defaultKeyTableAfter
    ) throws(VerificationConfigurationError) {
        validator = try CertificatePathValidator(roots: trustedRoots, keyTableAfter: keyTableAfter)
        cache = ChainCache(capacity: 64)
        trustedRootFingerprints = trustedRoots.map(\.sha256Hex)
    }

    /// The signatures a leaf key checks through EVP before it builds its precomputed table (1,000).
    /// Under `IAPLENS_REFERENCE=leaf-key-table` no table is ever built and every check goes through EVP, the reference.
    public static let defaultKeyTableAfter = FastPath.leafKeyTable.isEnabled ? LeafPublicKey.defaultTableAfter : .max

    /// How many validated chains are cached right now (at most 64).
    public var cachedChainCount: Int { cache.count }

    /// How many parsed certificates are held right now (at most 64), validated or not.
    public var parsedCertificateCount: Int { certificates.count }

    /// Verifies `jws` as Apple signs it.
    ///
    /// Checks, in order: `alg` is ES256; `x5c` holds exactly 3 certificates; leaf → intermediate validates to a
    /// configured root at `signedDateMillis` (the sent root is ignored); the leaf and intermediate carry Apple's
    /// marker OIDs; the 64-byte `r‖s` signature over the ASCII `header.payload` verifies with the leaf's P-256 key.
    public func verify(_ jws: CompactJWS, atMillis signedDateMillis: Int64) -> Result<Void, JWSVerificationFailure> {
        guard let alg = jws.header.alg else {
            return .failure(.init(.unsupportedAlgorithm, "The JWS header has no alg; Apple signs with ES256."))
        }
        guard alg == AppleCertificatePolicy.algorithm else {
            return .failure(
                .init(
                    .unsupportedAlgorithm,
                    "The JWS header's alg is \"\(alg)\"; only ES256, which Apple signs with, is accepted."
                ))
        }
        guard let x5c = jws.header.x5c else {
            return .failure(
                .init(
                    .badCertificateChain,
                    "The JWS header has no x5c certificate chain; Apple sends leaf, intermediate and root."
                ))
        }
        guard x5c.count == AppleCertificatePolicy.x5cCount else {
            return .failure(
                .init(
                    .badCertificateChain,
                    "The x5c header holds \(x5c.count) certificate\(x5c.count == 1 ? "" : "s"); "
                        + "Apple signs with exactly 3 (leaf, intermediate, root)."
                ))
        }
        let path: ValidatedPath
        switch validatedPath(leaf: x5c[0], intermediate: x5c[1], atSeconds: Self.seconds(signedDateMillis)) {
        case .success(let found): path = found
        case .failure(let failure): return .failure(failure)
        }
        checks.add(1, ordering: .relaxed)
        return Self.checkSignature(jws, digest: jws.signingInputDigest, key: path.leafKey)
    }

    /// Validates Apple's shape of chain without a JWS: DER leaf and intermediate, at a time in milliseconds.
    ///
    /// Not cached; meant for tests and diagnostics with real certificates.
    public func verifyChain(
        leafDER: [UInt8], intermediateDER: [UInt8], atMillis: Int64
    ) -> Result<Void, JWSVerificationFailure> {
        guard let leaf = X509Certificate(der: leafDER) else {
            return .failure(.init(.badCertificateChain, "The leaf certificate is not a valid DER X.509 certificate."))
        }
        guard let intermediate = X509Certificate(der: intermediateDER) else {
            return .failure(
                .init(.badCertificateChain, "The intermediate certificate is not a valid DER X.509 certificate."))
        }
        return validator.validate(leaf: leaf, intermediate: intermediate, atSeconds: Self.seconds(atMillis)).map { _ in
            ()
        }
    }

    /// Returns the cached path when it covers `seconds`; otherwise validates from scratch. A hit outside its
    /// window is not trusted to explain the failure: full validation then reports the precise reason.
    private func validatedPath(
        leaf: String, intermediate: String, atSeconds seconds: Int64
    ) -> Result<ValidatedPath, JWSVerificationFailure> {
        let key = ChainCache.Key(leaf: leaf, intermediate: intermediate)
        if let cached = cache.path(for: key), cached.contains(seconds) {
            return .success(cached)
        }
        // Certificates parsed before are taken as they are (``ParsedCertificates``); the others are decoded, both
        // before either is parsed, so a chain with several defects names the same one as it always did.
        let knownLeaf = certificates.certificate(for: leaf)
        let knownIntermediate = certificates.certificate(for: intermediate)
        let leafDER = knownLeaf == nil ? Base64Decoding.decode(leaf, alphabet: .standard) : []
        guard let leafDER else {
            return .failure(.init(.badBase64, "x5c[0] (the leaf certificate) is not valid base64."))
        }
        let intermediateDER = knownIntermediate == nil ? Base64Decoding.decode(intermediate, alphabet: .standard) : []
        guard let intermediateDER else {
            return .failure(.init(.badBase64, "x5c[1] (the intermediate certificate) is not valid base64."))
        }
        guard let leafCertificate = knownLeaf ?? parsed(leafDER, text: leaf) else {
            return .failure(.init(.badCertificateChain, "x5c[0] (the leaf) does not parse as a DER X.509 certificate."))
        }
        guard let intermediateCertificate = knownIntermediate ?? parsed(intermediateDER, text: intermediate) else {
            return .failure(
                .init(
                    .badCertificateChain, "x5c[1] (the intermediate) does not parse as a DER X.509 certificate."
                ))
        }
        let result = validator.validate(
            leaf: leafCertificate, intermediate: intermediateCertificate, atSeconds: seconds)
        if case .success(let path) = result {
            cache.store(path, for: key)
        }
        return result
    }

    /// `der` parsed, and kept for the next JWS that carries `text`; nil when it is not a DER X.509 certificate.
    private func parsed(_ der: [UInt8], text: String) -> X509Certificate? {
        guard let certificate = X509Certificate(der: der) else { return nil }
        certificates.store(certificate, for: text)
        return certificate
    }

    private static func checkSignature(
        _ jws: CompactJWS, digest: [UInt8], key: LeafPublicKey
    ) -> Result<Void, JWSVerificationFailure> {
        guard jws.signature.count == ECDSASignature.es256RawLength else {
            return .failure(
                .init(
                    .badSignature,
                    "The signature is \(jws.signature.count) bytes; an ES256 signature is exactly 64 (r‖s)."
                ))
        }
        guard key.verify(sha256Digest: digest, rawSignature: jws.signature) else {
            return .failure(
                .init(
                    .badSignature,
                    "The ES256 signature does not verify with the leaf certificate's key; the payload or signature was altered."
                ))
        }
        return .success(())
    }

    /// Milliseconds to whole seconds, rounding down as Apple's libraries do (integer division for positive times).
    private static func seconds(_ millis: Int64) -> Int64 {
        millis >= 0 ? millis / 1_000 : (millis - 999) / 1_000
    }
}
