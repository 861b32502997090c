import Foundation
import IAPTestSigning
import IAPVerification
import Testing

/// Apple's real production chain, checked with `verifyChain` (no JWS needed).
@Suite("Apple's production chain")
struct AppleProductionChainTests {
    let leaf: [UInt8]
    let intermediate: [UInt8]
    let rootFile: [UInt8]

    init() throws {
        leaf = try Self.resource("apple-production-leaf.der")
        intermediate = try Self.resource("apple-production-intermediate.der")
        rootFile = try Self.resource("AppleRootCA-G3.cer")
    }

    static func resource(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Certificates/\(name)", withExtension: nil))
        return [UInt8](try Data(contentsOf: url))
    }

    private func reason(at millis: Int64, roots: [TrustedRoot]) throws -> JWSFailureReason? {
        let verifier = try JWSVerifier(trustedRoots: roots)
        return TestPKI.reason(verifier.verifyChain(leafDER: leaf, intermediateDER: intermediate, atMillis: millis))
    }

    @Test("The embedded Apple Root CA - G3 is byte-identical to Apple's file and has the published fingerprint")
    func embeddedRoot() throws {
        let root = try TrustedRoot.appleRootCAG3
        #expect(root.sha256Hex == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        #expect(root.der == rootFile)
    }

    @Test("Verifies with the embedded root inside the leaf's validity")
    func validInsideLeafValidity() throws {
        #expect(try reason(at: 1_761_962_975_000, roots: [TrustedRoot.appleRootCAG3]) == nil)
    }

    @Test(
        "Expired at 2042, not yet valid before the leaf's 2025-09-19 start",
        arguments: [
            Int64(2_280_946_846_000),  // 2042-04-12, after every certificate of the path
            Int64(1_758_240_000_000),  // 2025-09-19T00:00:00Z, hours before the leaf's notBefore
            Int64(1_700_000_000_000),  // 2023-11-14
        ])
    func expiredOutsideValidity(millis: Int64) throws {
        #expect(try reason(at: millis, roots: [TrustedRoot.appleRootCAG3]) == .certificateExpired)
    }

    @Test("Fails against a test root")
    func untrustedAgainstTestRoot() throws {
        let testRoot = try TrustedRoot(der: TestPKI.chain().rootDER)
        #expect(try reason(at: 1_761_962_975_000, roots: [testRoot]) == .untrustedChain)
    }

    @Test("Swapped leaf and intermediate do not validate")
    func swapped() throws {
        let verifier = try JWSVerifier(trustedRoots: [TrustedRoot.appleRootCAG3])
        let result = verifier.verifyChain(leafDER: intermediate, intermediateDER: leaf, atMillis: 1_761_962_975_000)
        #expect(TestPKI.reason(result) == .untrustedChain)
    }

    @Test("A test chain is untrusted by the Apple root alone")
    func testChainUntrustedByAppleRoot() throws {
        let chain = try TestPKI.chain()
        let jws = try JWSSigner(chain: chain).sign(payload: TestPKI.payload())
        let verifier = try JWSVerifier(trustedRoots: [TrustedRoot.appleRootCAG3])
        #expect(TestPKI.reason(TestPKI.check(jws, with: verifier)) == .untrustedChain)
    }
}
