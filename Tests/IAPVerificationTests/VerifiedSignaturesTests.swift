import IAPTestSigning
import IAPVerification
import Testing

/// A JWS already accepted in this run is not checked again, and only the very same bytes at the very same
/// instant are taken as accepted.
@Suite struct VerifiedSignaturesTests {
    @Test func theSameBytesAtTheSameInstantAreCheckedOnce() throws {
        let chain = try TestPKI.chain()
        let verifier = try TestPKI.verifier(trusting: chain)
        let jws = try JWSSigner(chain: chain).sign(payload: TestPKI.payload())
        #expect(TestPKI.reason(TestPKI.check(jws, with: verifier)) == nil)
        #expect(TestPKI.reason(TestPKI.check(jws, with: verifier)) == nil)
        #expect(verifier.signatureChecks == 1 && verifier.signaturesReused == 1)
        // Another instant: checked again (a certificate's validity depends on it).
        #expect(TestPKI.reason(TestPKI.check(jws, with: verifier, at: TestPKI.signedDate + 1)) == nil)
        #expect(verifier.signatureChecks == 2)
    }

    /// Neither the cached chain nor the remembered signing input vouches for another signature.
    @Test func aRememberedSigningInputDoesNotVouchForAnotherSignature() throws {
        let chain = try TestPKI.chain()
        let verifier = try TestPKI.verifier(trusting: chain)
        let jws = try JWSSigner(chain: chain).sign(payload: TestPKI.payload())
        #expect(TestPKI.reason(TestPKI.check(jws, with: verifier)) == nil)
        // The same header and payload with a changed signature: checked, and refused.
        let tampered = String(jws.dropLast(2)) + (jws.hasSuffix("AA") ? "BA" : "AA")
        #expect(TestPKI.reason(TestPKI.check(tampered, with: verifier)) == .badSignature)
        #expect(verifier.signaturesReused == 0)
    }

    @Test func withoutReuseEverySignatureIsChecked() throws {
        let chain = try TestPKI.chain()
        let verifier = try JWSVerifier(trustedRoots: [TrustedRoot(der: chain.rootDER)], reusingSignatures: false)
        let jws = try JWSSigner(chain: chain).sign(payload: TestPKI.payload())
        for _ in 0..<3 { #expect(TestPKI.reason(TestPKI.check(jws, with: verifier)) == nil) }
        #expect(verifier.signatureChecks == 3 && verifier.signaturesReused == 0)
    }
}
