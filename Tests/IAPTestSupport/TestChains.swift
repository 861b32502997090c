import IAPTestSigning

/// Certificate chains of Apple's shape for tests, generated once per process (deterministic seeds).
public enum TestChains {
    /// The chain tests trust (pass `trustedRootPEM` as --root-certificate).
    public static let trusted: TestCertificateChain = make("iaplens-tests")
    /// A well-formed chain from a root nobody trusts: forgeries.
    public static let untrusted: TestCertificateChain = make("iaplens-tests-forger")
    /// The trusted root's chain, but the leaf lacks Apple's receipt-signing OID.
    public static let leafWithoutOID: TestCertificateChain = make("iaplens-tests", { $0.includeLeafOID = false })
    /// The trusted root's chain, but the intermediate lacks Apple's WWDR OID.
    public static let intermediateWithoutOID: TestCertificateChain = make(
        "iaplens-tests", { $0.includeIntermediateOID = false })
    /// The trusted root's chain with a leaf valid only during 2020.
    public static let leafValidIn2020: TestCertificateChain = make(
        "iaplens-tests",
        {
            $0.leafNotBefore = 1_577_836_800_000
            $0.leafNotAfter = 1_609_459_199_000
        })

    /// Signer for the trusted chain.
    public static let signer = JWSSigner(chain: trusted)

    private static func make(_ seed: String, _ adjust: (inout TestCertificateChain.Options) -> Void = { _ in })
        -> TestCertificateChain
    {
        var options = TestCertificateChain.Options()
        adjust(&options)
        do {
            return try TestCertificateChain.generate(seed: seed, options: options)
        } catch {
            preconditionFailure("test chain generation failed: \(error)")
        }
    }
}

extension TestChains {
    /// Signer for the untrusted chain (forgeries).
    public static let untrustedSigner = JWSSigner(chain: untrusted)
}
