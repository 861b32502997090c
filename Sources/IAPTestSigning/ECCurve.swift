internal import COpenSSL

/// The two NIST curves of Apple's chain: P-256 for the leaf (ES256), P-384 for the CAs.
enum ECCurve: Sendable {
    case p256
    case p384

    /// OpenSSL's curve NID.
    var nid: Int32 { self == .p256 ? NID_X9_62_prime256v1 : NID_secp384r1 }

    /// Size of a scalar or coordinate in bytes.
    var byteCount: Int { self == .p256 ? 32 : 48 }

    /// The named-curve OID used in SubjectPublicKeyInfo and SEC1 keys.
    var objectIdentifier: String { self == .p256 ? "1.2.840.10045.3.1.7" : "1.3.132.0.34" }

    /// The hash this curve signs with here: SHA-256 for ES256, SHA-384 for ecdsa-with-SHA384 certificates.
    var digest: Digest { self == .p256 ? .sha256 : .sha384 }

    /// The `ecdsa-with-SHA*` algorithm OID matching `digest`.
    var signatureAlgorithmOID: String { self == .p256 ? "1.2.840.10045.4.3.2" : "1.2.840.10045.4.3.3" }
}
