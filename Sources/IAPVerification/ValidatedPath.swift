/// A certificate path that passed validation and Apple's policy: the leaf's key and the time window in which
/// every certificate of the path (leaf, intermediate, trusted root) is valid.
struct ValidatedPath: Sendable {
    /// The leaf's P-256 key, for the ES256 check.
    let leafKey: LeafPublicKey
    /// The latest `notBefore` of the path, in seconds since 1970.
    let notBefore: Int64
    /// The earliest `notAfter` of the path, in seconds since 1970.
    let notAfter: Int64

    /// Whether OpenSSL would accept every certificate of the path at `seconds`.
    ///
    /// Matches `X509_cmp_time` as used by `check_cert_time`: valid when `notBefore <= t` and `t < notAfter`.
    func contains(_ seconds: Int64) -> Bool { notBefore <= seconds && seconds < notAfter }
}
