/// Why a compact JWS failed verification, one case per rule so each defect is reported on its own.
///
/// The raw values are the snake_case codes a reader sees; the store keeps its own ``QuarantineReason``, reached
/// through an exhaustive conversion in IAPPipeline (`QuarantineReason+Failures.swift`), not by raw value.
public enum JWSFailureReason: String, Sendable, CaseIterable {
    /// Not exactly three dot-separated segments, or the header is not a JSON object.
    case malformedJWS = "malformed_jws"
    /// A segment (or an `x5c` entry) is not valid base64url/base64.
    case badBase64 = "bad_base64"
    /// The header's `alg` is missing or is not `ES256`.
    case unsupportedAlgorithm = "unsupported_algorithm"
    /// `x5c` is missing, does not hold exactly three certificates, or a certificate does not parse.
    case badCertificateChain = "bad_certificate_chain"
    /// The path leaf → intermediate does not validate to one of the configured trusted roots.
    case untrustedChain = "untrusted_chain"
    /// A certificate in the validated path is not valid at the payload's `signedDate`.
    case certificateExpired = "certificate_expired"
    /// The leaf or the intermediate lacks Apple's marker extension.
    case missingAppleOID = "missing_apple_oid"
    /// The signature is not 64 bytes or does not verify with the leaf's key.
    case badSignature = "bad_signature"
}
