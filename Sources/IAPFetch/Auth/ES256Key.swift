internal import COpenSSL
import Foundation

/// An App Store Connect API key (a P-256 private key, PKCS#8 PEM as in Apple's `.p8` file) that signs ES256: SHA-256,
/// ECDSA, the signature as the raw `r ‖ s` JWS wants (RFC 7518 §3.4), not OpenSSL's DER.
///
/// OpenSSL 3 allows concurrent signing with one `EVP_PKEY` that nobody modifies, hence `@unchecked Sendable`.
public final class ES256Key: @unchecked Sendable {
    private let key: OpaquePointer

    /// Reads the key from PEM text. - Throws: ``FetchError/badKey(path:reason:)`` with `path` for the message.
    public init(pem: String, path: String) throws(FetchError) {
        let bytes = Array(pem.utf8)
        let key: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key else {
            ERR_clear_error()
            throw .badKey(
                path: path,
                reason: "it is not a PEM private key (Apple's .p8 file starts with -----BEGIN PRIVATE KEY-----)")
        }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC,
            EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1,
            String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
        else {
            EVP_PKEY_free(key)
            throw .badKey(
                path: path,
                reason: "it is not an elliptic-curve P-256 key; App Store Connect's In-App Purchase keys are")
        }
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The ES256 signature of `message`: 64 bytes, `r ‖ s`.
    public func sign(_ message: [UInt8]) throws(FetchError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .crypto("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw .crypto("EVP_DigestSignInit") }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw .crypto("EVP_DigestSign")
        }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else {
            throw .crypto("EVP_DigestSign")
        }
        return try Self.raw(fromDER: Array(der.prefix(length)))
    }

    /// True when `signature` (raw `r ‖ s`) is this key's ES256 signature of `message`.
    public func verify(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard signature.count == 64, let der = Self.der(fromRaw: signature), let context = EVP_MD_CTX_new() else {
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        let verified = EVP_DigestVerify(context, der, der.count, message, message.count) == 1
        ERR_clear_error()
        return verified
    }

    private static func raw(fromDER der: [UInt8]) throws(FetchError) -> [UInt8] {
        var cursor: UnsafePointer<UInt8>? = nil
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw .crypto("d2i_ECDSA_SIG") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var out = [UInt8](repeating: 0, count: 64)
        let written = out.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(r, buffer.baseAddress, 32)
                + BN_bn2binpad(s, UnsafeMutableBufferPointer(rebasing: buffer[32...]).baseAddress, 32)
        }
        guard written == 64 else { throw .crypto("BN_bn2binpad") }
        return out
    }

    private static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn(UnsafeBufferPointer(rebasing: $0[32...]).baseAddress, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else { return nil }
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_ECDSA_SIG(signature, &out)
        guard length > 0, let out else { return nil }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }
}
