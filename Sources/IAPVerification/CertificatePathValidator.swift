internal import COpenSSL

/// RFC 5280 path validation with OpenSSL against a fixed set of trusted roots, plus Apple's marker-OID policy.
///
/// The `X509_STORE` is built once and then only read; every validation gets its own `X509_STORE_CTX`, which is
/// the thread-safe way to share a store. `@unchecked Sendable` for that reason.
final class CertificatePathValidator: @unchecked Sendable {
    private let store: OpaquePointer
    /// Passed to every ``LeafPublicKey`` this validator makes.
    private let keyTableAfter: Int

    /// Builds the store, or throws if OpenSSL refuses a root.
    init(roots: [TrustedRoot], keyTableAfter: Int = JWSVerifier.defaultKeyTableAfter)
        throws(VerificationConfigurationError)
    {
        self.keyTableAfter = keyTableAfter
        guard !roots.isEmpty else { throw .noTrustedRoots }
        guard let store = X509_STORE_new() else {
            throw .openSSL(operation: "X509_STORE_new", detail: OpenSSLError.drain())
        }
        for root in roots where X509_STORE_add_cert(store, root.certificate.pointer) != 1 {
            let detail = OpenSSLError.drain()
            // Adding the same root twice is harmless; anything else means the root cannot be used.
            if !detail.contains("cert already in hash table") {
                X509_STORE_free(store)
                throw .unusableRoot(sha256Hex: root.sha256Hex, detail: detail)
            }
        }
        self.store = store
    }

    deinit { X509_STORE_free(store) }

    /// Validates leaf → intermediate → configured root at `seconds`, then checks Apple's marker extensions.
    ///
    /// Time errors are told apart from trust errors so an old payload from a rotated chain reads as
    /// "expired at signedDate", not as "untrusted".
    func validate(
        leaf: X509Certificate, intermediate: X509Certificate, atSeconds seconds: Int64
    ) -> Result<ValidatedPath, JWSVerificationFailure> {
        guard let context = X509_STORE_CTX_new(), let untrusted = iaplens_sk_X509_new_null() else {
            return .failure(
                .init(.untrustedChain, "OpenSSL could not allocate a verification context: \(OpenSSLError.drain())."))
        }
        defer {
            X509_STORE_CTX_free(context)
            iaplens_sk_X509_free(untrusted)
        }
        guard iaplens_sk_X509_push(untrusted, intermediate.pointer) > 0,
            X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1,
            let parameters = X509_STORE_CTX_get0_param(context)
        else {
            return .failure(
                .init(.untrustedChain, "OpenSSL could not set up path validation: \(OpenSSLError.drain())."))
        }
        // The sent root is never trusted and never offered: the path must end at a configured root.
        X509_VERIFY_PARAM_clear_flags(parameters, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        X509_VERIFY_PARAM_set_time(parameters, time_t(seconds))

        if X509_verify_cert(context) != 1 {
            let failure = Self.failure(from: context, atSeconds: seconds)
            ERR_clear_error()
            return .failure(failure)
        }
        return Self.checkPolicy(context: context, leaf: leaf, intermediate: intermediate, keyTableAfter: keyTableAfter)
    }

    private static func checkPolicy(
        context: OpaquePointer, leaf: X509Certificate, intermediate: X509Certificate, keyTableAfter: Int
    ) -> Result<ValidatedPath, JWSVerificationFailure> {
        guard let chain = X509_STORE_CTX_get0_chain(context), iaplens_sk_X509_num(chain) == 3,
            let builtIntermediate = iaplens_sk_X509_value(chain, 1), intermediate.isSame(as: builtIntermediate),
            let builtRoot = iaplens_sk_X509_value(chain, 2)
        else {
            return .failure(
                .init(
                    .untrustedChain,
                    "The certificates do not form the path leaf → intermediate → trusted root that Apple uses; "
                        + "pass --root-certificate with the root that issued the intermediate."
                ))
        }
        guard leaf.hasExtension(oid: AppleCertificatePolicy.leafMarkerOID) else {
            return .failure(
                .init(
                    .missingAppleOID,
                    "The leaf certificate (\(leaf.subjectDescription)) lacks Apple's receipt-signing extension "
                        + "\(AppleCertificatePolicy.leafMarkerOID), so it was not issued for App Store signed data."
                ))
        }
        guard intermediate.hasExtension(oid: AppleCertificatePolicy.intermediateMarkerOID) else {
            return .failure(
                .init(
                    .missingAppleOID,
                    "The intermediate certificate (\(intermediate.subjectDescription)) lacks Apple's WWDR extension "
                        + "\(AppleCertificatePolicy.intermediateMarkerOID), so it is not an Apple signing intermediate."
                ))
        }
        let root = X509Certificate(retaining: builtRoot)
        let path = [leaf, intermediate, root]
        let starts = path.compactMap(\.notBefore)
        let ends = path.compactMap(\.notAfter)
        guard starts.count == 3, ends.count == 3, let notBefore = starts.max(), let notAfter = ends.min() else {
            return .failure(.init(.badCertificateChain, "A certificate in the path has an unreadable validity date."))
        }
        guard let key = LeafPublicKey(certificate: leaf, tableAfter: keyTableAfter) else {
            return .failure(
                .init(
                    .badCertificateChain,
                    "The leaf certificate's key is not an EC P-256 key, which ES256 requires."
                ))
        }
        return .success(ValidatedPath(leafKey: key, notBefore: notBefore, notAfter: notAfter))
    }

    private static let positionNames = ["leaf", "intermediate", "root"]

    private static func failure(from context: OpaquePointer, atSeconds seconds: Int64) -> JWSVerificationFailure {
        let code = X509_STORE_CTX_get_error(context)
        let depth = Int(X509_STORE_CTX_get_error_depth(context))
        let position = depth >= 0 && depth < positionNames.count ? positionNames[depth] : "depth \(depth)"
        let openSSLText = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
        let when = CivilTime.iso8601(seconds)
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID:
            var window = ""
            if let current = X509_STORE_CTX_get_current_cert(context) {
                let cert = X509Certificate(retaining: current)
                if let start = cert.notBefore, let end = cert.notAfter {
                    window = " (valid \(CivilTime.iso8601(start)) to \(CivilTime.iso8601(end)))"
                }
            }
            let state = code == X509_V_ERR_CERT_HAS_EXPIRED ? "had expired" : "was not yet valid"
            return .init(
                .certificateExpired,
                "The \(position) certificate\(window) \(state) at the payload's signedDate \(when); "
                    + "the payload was signed outside its chain's validity."
            )
        case X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD, X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD:
            return .init(
                .badCertificateChain, "The \(position) certificate has a malformed validity date (\(openSSLText)).")
        default:
            return .init(
                .untrustedChain,
                "The certificate chain does not chain to a trusted root (OpenSSL at the \(position): \(openSSLText)); "
                    + "pass --root-certificate for test or sandbox chains."
            )
        }
    }
}
