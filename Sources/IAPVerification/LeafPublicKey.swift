internal import COpenSSL

/// A leaf certificate's P-256 public key, parsed once and shared read-only by every verification that uses it.
///
/// `@unchecked Sendable`: OpenSSL 3 allows concurrent operations on one `EVP_PKEY` as long as nobody modifies it;
/// each call below uses its own `EVP_MD_CTX`.
final class LeafPublicKey: @unchecked Sendable {
    private let pointer: OpaquePointer

    /// Takes the key out of a certificate, or returns nil unless it is an EC key on P-256 (ES256 requires one).
    init?(certificate: X509Certificate) {
        guard let key = X509_get_pubkey(certificate.pointer) else {
            ERR_clear_error()
            return nil
        }
        var curveName = [CChar](repeating: 0, count: 64)
        var nameLength = 0
        let isP256 = EVP_PKEY_get_base_id(key) == EVP_PKEY_EC
            && EVP_PKEY_get_group_name(key, &curveName, curveName.count, &nameLength) == 1
            && String(decoding: curveName.prefix(nameLength).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                == "prime256v1"
        guard isP256 else {
            EVP_PKEY_free(key)
            return nil
        }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// Verifies a DER ECDSA signature over an already computed SHA-256 digest (ES256's hash).
    func verify(sha256Digest digest: [UInt8], derSignature: [UInt8]) -> Bool {
        guard digest.count == 32, let context = EVP_PKEY_CTX_new(pointer, nil) else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_verify_init(context) == 1 else {
            ERR_clear_error()
            return false
        }
        let result = EVP_PKEY_verify(context, derSignature, derSignature.count, digest, digest.count)
        if result != 1 { ERR_clear_error() }
        return result == 1
    }
}
