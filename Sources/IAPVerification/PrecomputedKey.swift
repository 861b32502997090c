internal import CFixedKeyECDSA

/// A leaf key with OpenSSL's precomputed multiples of it (`CFixedKeyECDSA`): about 150 KB, built once in about
/// 20 ms, after which an ES256 check costs about a third of one through `EVP_PKEY_verify`, which doubles the point
/// 256 times on every call (Documentation/Performance.md, "A leaf key's table of multiples").
///
/// `@unchecked Sendable`: the table is only read once built, so several threads may verify with it at once.
final class PrecomputedKey: @unchecked Sendable {
    private let pointer: OpaquePointer

    /// Builds the table for an encoded P-256 point, or returns nil when OpenSSL refuses the point or fails.
    init?(encodedPoint: [UInt8]) {
        guard let built = iaplens_fixed_key_new(encodedPoint, encodedPoint.count) else { return nil }
        pointer = built
    }

    deinit { iaplens_fixed_key_free(pointer) }

    /// Checks a raw `r‖s` signature over a SHA-256 digest: true or false, or nil when OpenSSL failed (out of
    /// memory) and the caller should check the slow way.
    func verify(sha256Digest digest: [UInt8], rawSignature signature: [UInt8]) -> Bool? {
        precondition(digest.count == 32 && signature.count == 64, "ES256: a 32-byte digest and a 64-byte r‖s")
        switch iaplens_fixed_key_verify(pointer, digest, signature) {
        case 1: return true
        case 0: return false
        default: return nil
        }
    }
}
