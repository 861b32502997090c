import Foundation
import IAPTestSigning
import IAPVerification
import Testing

@Suite("Trusted roots")
struct TrustedRootTests {
    private func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "iaplens-roots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test("A DER file loads as one root, detected by content whatever the extension")
    func derFile() throws {
        let chain = try TestPKI.chain()
        let path = try temporaryFile("root.pem", chain.rootDER)
        let roots = try TrustedRoot.load(fromFile: path)
        #expect(roots.map(\.der) == [chain.rootDER])
    }

    @Test("A PEM file with several certificates loads all of them, in order")
    func multiPEM() throws {
        let first = try TestPKI.chain("pem-1")
        let second = try TestPKI.chain("pem-2")
        let path = try temporaryFile("roots.cer", Array(("# roots\n" + first.rootPEM + second.rootPEM).utf8))
        let roots = try TrustedRoot.load(fromFile: path)
        #expect(roots.map(\.der) == [first.rootDER, second.rootDER])
    }

    @Test("Missing files, junk files and an empty root list are configuration errors")
    func configurationErrors() throws {
        #expect(throws: VerificationConfigurationError.self) { try TrustedRoot.load(fromFile: "/nonexistent/root.pem") }
        let junk = try temporaryFile("junk.der", Array("hello".utf8))
        #expect(throws: VerificationConfigurationError.noCertificate(path: junk)) {
            try TrustedRoot.load(fromFile: junk)
        }
        let brokenPEM = try temporaryFile(
            "broken.pem", Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8))
        #expect(throws: VerificationConfigurationError.self) { try TrustedRoot.load(fromFile: brokenPEM) }
        #expect(throws: VerificationConfigurationError.noTrustedRoots) { try JWSVerifier(trustedRoots: []) }
        #expect(throws: VerificationConfigurationError.self) { try TrustedRoot(der: [0x30, 0x03, 0x02, 0x01, 0x01]) }
        #expect(VerificationConfigurationError.noTrustedRoots.description.contains("--root-certificate"))
    }

    @Test("The same root given twice is accepted")
    func duplicateRoots() throws {
        let chain = try TestPKI.chain()
        let root = try TrustedRoot(der: chain.rootDER)
        let verifier = try JWSVerifier(trustedRoots: [root, root])
        #expect(verifier.trustedRootFingerprints.count == 2)
        let jws = try JWSSigner(chain: chain).sign(payload: TestPKI.payload())
        #expect(TestPKI.reason(TestPKI.check(jws, with: verifier)) == nil)
    }
}
