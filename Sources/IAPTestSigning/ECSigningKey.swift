internal import COpenSSL
import IAPVerification

/// An EC private key that signs deterministically (RFC 6979 nonce, then `ECDSA_do_sign_ex`).
///
/// Immutable after init; each signature uses its own `BN_CTX`, points and numbers, and OpenSSL only reads the
/// `EC_KEY` while signing, so one instance is shared across threads (`@unchecked Sendable`).
final class ECSigningKey: @unchecked Sendable {
    let curve: ECCurve
    /// The private scalar d, `curve.byteCount` bytes big-endian.
    let privateScalar: [UInt8]
    /// The public point d·G, uncompressed (`04 ‖ X ‖ Y`).
    let publicPoint: [UInt8]
    private let key: OpaquePointer
    private let order: [UInt8]

    /// Builds the key pair from a private scalar in `[1, n-1]`.
    init(privateScalar: [UInt8], curve: ECCurve) throws(SigningError) {
        guard let key = EC_KEY_new_by_curve_name(curve.nid) else { throw Self.openSSLError("EC_KEY_new_by_curve_name") }
        var ok = false
        defer { if !ok { EC_KEY_free(key) } }
        guard let group = EC_KEY_get0_group(key), let context = BN_CTX_new() else {
            throw Self.openSSLError("BN_CTX_new")
        }
        defer { BN_CTX_free(context) }
        guard let orderBN = EC_GROUP_get0_order(group) else { throw Self.openSSLError("EC_GROUP_get0_order") }
        let scalar = privateScalar.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        guard let scalar else { throw Self.openSSLError("BN_bin2bn") }
        defer { BN_clear_free(scalar) }
        guard BN_is_zero(scalar) == 0, BN_cmp(scalar, orderBN) < 0 else {
            throw .openSSL(operation: "ECSigningKey.init", detail: "private scalar outside [1, n-1]")
        }
        guard let point = EC_POINT_new(group) else { throw Self.openSSLError("EC_POINT_new") }
        defer { EC_POINT_free(point) }
        guard EC_POINT_mul(group, point, scalar, nil, nil, context) == 1,
            EC_KEY_set_private_key(key, scalar) == 1,
            EC_KEY_set_public_key(key, point) == 1
        else { throw Self.openSSLError("EC_POINT_mul") }
        var encoded = [UInt8](repeating: 0, count: 1 + 2 * curve.byteCount)
        guard
            EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, &encoded, encoded.count, context)
                == encoded.count
        else { throw Self.openSSLError("EC_POINT_point2oct") }
        self.curve = curve
        self.privateScalar = Self.fixedWidth(scalar, curve.byteCount)
        self.publicPoint = encoded
        self.order = Self.fixedWidth(orderBN, curve.byteCount)
        self.key = key
        ok = true
    }

    /// Derives a key from a seed and a role name ("root", "intermediate", "leaf"):
    /// d = (H(label) mod (n-1)) + 1 from 96 bytes of SHA-384 output, so it is never zero, always below n,
    /// and free of noticeable modulo bias.
    convenience init(seed: String, role: String, curve: ECCurve) throws(SigningError) {
        let material =
            Digest.sha384.hash(Array("iaplens-test-pki/v1/key/\(role)/\(seed)".utf8))
            + Digest.sha384.hash(Array("iaplens-test-pki/v1/key2/\(role)/\(seed)".utf8))
        guard let group = EC_GROUP_new_by_curve_name(curve.nid), let context = BN_CTX_new() else {
            throw Self.openSSLError("EC_GROUP_new_by_curve_name")
        }
        defer {
            EC_GROUP_free(group)
            BN_CTX_free(context)
        }
        guard let order = EC_GROUP_get0_order(group), let modulus = BN_dup(order), let value = BN_new() else {
            throw Self.openSSLError("BN_new")
        }
        defer {
            BN_free(modulus)
            BN_clear_free(value)
        }
        guard BN_sub_word(modulus, 1) == 1,
            material.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), value) }) != nil,
            BN_nnmod(value, value, modulus, context) == 1,
            BN_add_word(value, 1) == 1
        else { throw Self.openSSLError("BN_nnmod") }
        try self.init(privateScalar: Self.fixedWidth(value, curve.byteCount), curve: curve)
    }

    deinit { EC_KEY_free(key) }

    /// Signs a digest deterministically and returns `r` and `s`, each `curve.byteCount` bytes.
    func sign(digest: [UInt8]) throws(SigningError) -> (r: [UInt8], s: [UInt8]) {
        let nonce = RFC6979.nonce(privateKey: privateScalar, digest: digest, order: order, hash: curve.digest)
        guard let group = EC_KEY_get0_group(key), let orderBN = EC_GROUP_get0_order(group),
            let context = BN_CTX_new()
        else { throw Self.openSSLError("BN_CTX_new") }
        defer { BN_CTX_free(context) }
        let k = nonce.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        guard let k, let point = EC_POINT_new(group), let x = BN_new(), let r = BN_new() else {
            throw Self.openSSLError("BN_new")
        }
        defer {
            BN_clear_free(k)
            EC_POINT_free(point)
            BN_free(x)
            BN_free(r)
        }
        // r = (k·G).x mod n and kinv = k⁻¹ mod n; handing both to OpenSSL replaces its random nonce with ours.
        guard EC_POINT_mul(group, point, k, nil, nil, context) == 1,
            EC_POINT_get_affine_coordinates(group, point, x, nil, context) == 1,
            BN_nnmod(r, x, orderBN, context) == 1
        else { throw Self.openSSLError("EC_POINT_mul") }
        guard BN_is_zero(r) == 0 else { throw .degenerateSignature }
        guard let kinv = BN_mod_inverse(nil, k, orderBN, context) else { throw Self.openSSLError("BN_mod_inverse") }
        defer { BN_clear_free(kinv) }
        let signature = digest.withUnsafeBufferPointer {
            ECDSA_do_sign_ex($0.baseAddress, Int32($0.count), kinv, r, key)
        }
        guard let signature else { throw Self.openSSLError("ECDSA_do_sign_ex") }
        defer { ECDSA_SIG_free(signature) }
        guard let sigR = ECDSA_SIG_get0_r(signature), let sigS = ECDSA_SIG_get0_s(signature) else {
            throw .degenerateSignature
        }
        return (Self.fixedWidth(sigR, curve.byteCount), Self.fixedWidth(sigS, curve.byteCount))
    }

    /// Signs a digest and returns the DER `ECDSA-Sig-Value` X.509 signatures carry.
    func signDER(digest: [UInt8]) throws(SigningError) -> [UInt8] {
        let (r, s) = try sign(digest: digest)
        return DER.sequence([DER.integer(unsigned: r), DER.integer(unsigned: s)])
    }

    private static func fixedWidth(_ number: OpaquePointer, _ width: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width)
        _ = BN_bn2binpad(number, &bytes, Int32(width))
        return bytes
    }

    static func openSSLError(_ operation: String) -> SigningError {
        .openSSL(operation: operation, detail: OpenSSLError.drain())
    }
}
