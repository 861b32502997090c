import IAPTestSigning
import IAPVerification

/// Chains, signers and payloads shared by the verification tests.
enum TestPKI {
    /// 2023-11-14T22:13:20Z, inside the default 2015–2045 validity.
    static let signedDate: Int64 = 1_700_000_000_000

    static func chain(_ seed: String = "verification-tests", options: TestCertificateChain.Options = .init()) throws
        -> TestCertificateChain
    {
        try TestCertificateChain.generate(seed: seed, options: options)
    }

    static func verifier(trusting chain: TestCertificateChain) throws -> JWSVerifier {
        try JWSVerifier(trustedRoots: [TrustedRoot(der: chain.rootDER)])
    }

    static func payload(signedDate: Int64 = signedDate, note: String = "test") -> [UInt8] {
        Array("{\"notificationType\":\"TEST\",\"note\":\"\(note)\",\"signedDate\":\(signedDate)}".utf8)
    }

    /// Parses then verifies, the way the pipeline calls the verifier.
    static func check(_ jws: String, with verifier: JWSVerifier, at millis: Int64 = signedDate)
        -> Result<Void, JWSVerificationFailure>
    {
        CompactJWS.parse(jws).flatMap { verifier.verify($0, atMillis: millis) }
    }

    /// The failure reason, or nil when verification passed.
    static func reason(_ result: Result<Void, JWSVerificationFailure>) -> JWSFailureReason? {
        if case .failure(let failure) = result { return failure.reason }
        return nil
    }
}
