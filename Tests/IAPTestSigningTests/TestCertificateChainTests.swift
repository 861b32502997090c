import Foundation
import IAPVerification
import Testing

@testable import IAPTestSigning

@Suite("Test certificate chain")
struct TestCertificateChainTests {
    private func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("iaplens-pki-\(UUID().uuidString)").path
    }

    @Test("The same seed gives byte-identical certificates; another seed gives different ones")
    func deterministic() throws {
        let first = try TestCertificateChain.generate(seed: "pki")
        let again = try TestCertificateChain.generate(seed: "pki")
        let other = try TestCertificateChain.generate(seed: "pki2")
        #expect(first == again)
        #expect(first.rootDER != other.rootDER && first.leafDER != other.leafDER)
        #expect(first.leafPrivateScalar != other.leafPrivateScalar)
    }

    @Test("The generated chain validates as Apple's shape at a date inside its validity")
    func validChain() throws {
        let chain = try TestCertificateChain.generate(seed: "shape")
        let verifier = try JWSVerifier(trustedRoots: [TrustedRoot(der: chain.rootDER)])
        let result = verifier.verifyChain(
            leafDER: chain.leafDER, intermediateDER: chain.intermediateDER, atMillis: 1_700_000_000_000)
        #expect(throws: Never.self) { try result.get() }
        let early = verifier.verifyChain(
            leafDER: chain.leafDER, intermediateDER: chain.intermediateDER, atMillis: 1_400_000_000_000)
        if case .failure(let failure) = early {
            #expect(failure.reason == .certificateExpired)
        } else {
            Issue.record("expected failure")
        }
    }

    @Test("Dates after 2049 use GeneralizedTime and still validate")
    func generalizedTime() throws {
        let chain = try TestCertificateChain.generate(
            seed: "far", options: .init(notBefore: 2_556_144_000_000, notAfter: 2_700_000_000_000)
        )
        let verifier = try JWSVerifier(trustedRoots: [TrustedRoot(der: chain.rootDER)])
        let result = verifier.verifyChain(
            leafDER: chain.leafDER, intermediateDER: chain.intermediateDER, atMillis: 2_600_000_000_000)
        #expect(throws: Never.self) { try result.get() }
        #expect(DER.time(epochSeconds: 2_556_144_000) == [0x18, 0x0F] + Array("20510101000000Z".utf8))
        #expect(DER.time(epochSeconds: 1_420_070_400) == [0x17, 0x0D] + Array("150101000000Z".utf8))
    }

    @Test("An empty validity window is rejected")
    func invalidValidity() {
        #expect(throws: SigningError.self) {
            try TestCertificateChain.generate(seed: "x", options: .init(notBefore: 10_000, notAfter: 10_000))
        }
        #expect(throws: SigningError.self) {
            try TestCertificateChain.generate(seed: "x", options: .init(leafNotBefore: 20_000, leafNotAfter: 10_000))
        }
    }

    @Test("write then load gives the same chain, and the signer from either produces the same JWS")
    func writeLoadRoundTrip() throws {
        let chain = try TestCertificateChain.generate(seed: "files")
        let directory = temporaryDirectory()
        try chain.write(to: directory)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["intermediate.der", "leaf-key.pem", "leaf.der", "root.der", "root.pem"])
        let loaded = try TestCertificateChain.load(from: directory)
        #expect(loaded == chain)
        let payload = Array("{\"signedDate\":1}".utf8)
        #expect(try JWSSigner(chain: loaded).sign(payload: payload) == JWSSigner(chain: chain).sign(payload: payload))
    }

    @Test("root.pem loads with TrustedRoot.load(fromFile:)")
    func rootPEMLoads() throws {
        let chain = try TestCertificateChain.generate(seed: "pem")
        let directory = temporaryDirectory()
        try chain.write(to: directory)
        let roots = try TrustedRoot.load(fromFile: (directory as NSString).appendingPathComponent("root.pem"))
        #expect(roots.map(\.der) == [chain.rootDER])
        #expect(chain.rootPEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
    }

    @Test("load rejects a key that does not belong to the leaf, and a missing directory")
    func loadRejects() throws {
        let directory = temporaryDirectory()
        try TestCertificateChain.generate(seed: "a").write(to: directory)
        let otherKey = try TestCertificateChain.generate(seed: "b").leafPrivateKeyPEM
        try Data(otherKey.utf8).write(
            to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent("leaf-key.pem")))
        #expect(throws: SigningError.self) { try TestCertificateChain.load(from: directory) }
        #expect(throws: SigningError.self) { try TestCertificateChain.load(from: temporaryDirectory()) }
    }
}
