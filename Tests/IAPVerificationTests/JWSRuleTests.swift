import Foundation
import IAPTestSigning
import IAPVerification
import Testing

/// Each verification rule, dropped on its own, fails with its own reason.
@Suite("Each rule fails with its own reason")
struct JWSRuleTests {
    let chain: TestCertificateChain
    let signer: JWSSigner
    let verifier: JWSVerifier
    let valid: String

    init() throws {
        chain = try TestPKI.chain()
        signer = JWSSigner(chain: chain)
        verifier = try TestPKI.verifier(trusting: chain)
        valid = try signer.sign(payload: TestPKI.payload())
    }

    private func reason(_ jws: String, at millis: Int64 = TestPKI.signedDate) -> JWSFailureReason? {
        TestPKI.reason(TestPKI.check(jws, with: verifier, at: millis))
    }

    private func segments(_ jws: String) -> [String] {
        jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    @Test("The unmodified JWS verifies (control)")
    func control() {
        #expect(reason(valid) == nil)
    }

    @Test("A chain from another seed does not chain to the configured root")
    func wrongRoot() throws {
        let foreign = try JWSSigner(chain: TestPKI.chain("another seed")).sign(payload: TestPKI.payload())
        #expect(reason(foreign) == .untrustedChain)
        guard case .failure(let failure) = TestPKI.check(foreign, with: verifier) else { return }
        #expect(failure.message.contains("--root-certificate"))
    }

    @Test("x5c with 2, 4 or 0 certificates, or without x5c, is a bad chain", arguments: [2, 4, 0, -1])
    func x5cCount(count: Int) throws {
        let x5c = chain.x5c
        let header: JWSHeaderOverride =
            switch count {
            case 2: .init(x5c: Array(x5c.prefix(2)))
            case 4: .init(x5c: x5c + [x5c[2]])
            case 0: .init(x5c: [])
            default: .init(omitX5C: true)
            }
        let jws = try signer.sign(payload: TestPKI.payload(), header: header)
        #expect(reason(jws) == .badCertificateChain)
        if count == 2, case .failure(let failure) = TestPKI.check(jws, with: verifier) {
            #expect(failure.message.contains("holds 2 certificates"))
        }
    }

    @Test("A leaf or intermediate that is valid base64 but not a certificate is a bad chain", arguments: [0, 1])
    func junkCertificate(position: Int) throws {
        var x5c = chain.x5c
        x5c[position] = Data("definitely not DER".utf8).base64EncodedString()
        let jws = try signer.sign(payload: TestPKI.payload(), header: .init(x5c: x5c))
        #expect(reason(jws) == .badCertificateChain)
    }

    @Test("An x5c entry that is not base64 is bad base64", arguments: [0, 1])
    func junkBase64Certificate(position: Int) throws {
        var x5c = chain.x5c
        x5c[position] = "***not base64***"
        let jws = try signer.sign(payload: TestPKI.payload(), header: .init(x5c: x5c))
        #expect(reason(jws) == .badBase64)
    }

    @Test(
        "A leaf that is not DER beside an intermediate that is not base64 is bad base64, before and after the leaf is known"
    )
    func base64IsCheckedBeforeDER() throws {
        var x5c = chain.x5c
        x5c[0] = Data("definitely not DER".utf8).base64EncodedString()
        x5c[1] = "***not base64***"
        let jws = try signer.sign(payload: TestPKI.payload(), header: .init(x5c: x5c))
        #expect(reason(jws) == .badBase64)
        // The real leaf, now parsed and kept by the verifier, beside the same intermediate: still the base64.
        #expect(reason(valid) == nil)
        var known = chain.x5c
        known[1] = "***not base64***"
        #expect(reason(try signer.sign(payload: TestPKI.payload(), header: .init(x5c: known))) == .badBase64)
    }

    @Test("A leaf without Apple's receipt-signing OID is refused")
    func leafWithoutOID() throws {
        let bare = try TestPKI.chain(options: .init(includeLeafOID: false))
        let jws = try JWSSigner(chain: bare).sign(payload: TestPKI.payload())
        let result = try TestPKI.check(jws, with: TestPKI.verifier(trusting: bare))
        #expect(TestPKI.reason(result) == .missingAppleOID)
        if case .failure(let failure) = result { #expect(failure.message.contains("1.2.840.113635.100.6.11.1")) }
    }

    @Test("A leaf whose key is not on P-256, in a chain otherwise whole, is refused before any signature check")
    func leafKeyNotP256() throws {
        // The chain is Apple's shape and trusted, with both OIDs; only the leaf's key is on P-384, which ES256
        // cannot use. The JWS is signed by another chain's P-256 leaf and carries this chain's certificates.
        let wrongCurve = try TestPKI.chain(options: .init(leafKeyOnP384: true))
        let signed = try JWSSigner(chain: TestPKI.chain()).sign(
            payload: TestPKI.payload(), header: .init(x5c: wrongCurve.x5c))
        let result = try TestPKI.check(signed, with: TestPKI.verifier(trusting: wrongCurve))
        #expect(TestPKI.reason(result) == .badCertificateChain)
        if case .failure(let failure) = result { #expect(failure.message.contains("not an EC P-256 key")) }
    }

    @Test("An intermediate without Apple's WWDR OID is refused")
    func intermediateWithoutOID() throws {
        let bare = try TestPKI.chain(options: .init(includeIntermediateOID: false))
        let jws = try JWSSigner(chain: bare).sign(payload: TestPKI.payload())
        let result = try TestPKI.check(jws, with: TestPKI.verifier(trusting: bare))
        #expect(TestPKI.reason(result) == .missingAppleOID)
        if case .failure(let failure) = result { #expect(failure.message.contains("1.2.840.113635.100.6.2.1")) }
    }

    @Test("A leaf expired at signedDate, or not yet valid, is a certificate_expired failure")
    func leafValidity() throws {
        // Leaf valid 2020-01-01 to 2022-01-01; the CAs keep the default 2015–2045.
        let dated = try TestPKI.chain(options: .init(leafNotBefore: 1_577_836_800_000, leafNotAfter: 1_640_995_200_000))
        let datedVerifier = try TestPKI.verifier(trusting: dated)
        let signer = JWSSigner(chain: dated)
        let after = try signer.sign(payload: TestPKI.payload(signedDate: TestPKI.signedDate))
        #expect(
            TestPKI.reason(TestPKI.check(after, with: datedVerifier, at: TestPKI.signedDate)) == .certificateExpired)
        let before = try signer.sign(payload: TestPKI.payload(signedDate: 1_500_000_000_000))
        let result = TestPKI.check(before, with: datedVerifier, at: 1_500_000_000_000)
        #expect(TestPKI.reason(result) == .certificateExpired)
        if case .failure(let failure) = result { #expect(failure.message.contains("not yet valid")) }
        let inside = try signer.sign(payload: TestPKI.payload(signedDate: 1_600_000_000_000))
        #expect(TestPKI.reason(TestPKI.check(inside, with: datedVerifier, at: 1_600_000_000_000)) == nil)
    }

    @Test("A tampered payload fails the signature check")
    func tamperedPayload() throws {
        var parts = segments(valid)
        let other = try signer.sign(payload: TestPKI.payload(note: "tampered"))
        parts[1] = segments(other)[1]
        #expect(reason(parts.joined(separator: ".")) == .badSignature)
    }

    @Test("A tampered signature fails the signature check")
    func tamperedSignature() throws {
        var parsed = Array(try CompactJWS.parse(valid).get().signature)
        parsed[10] ^= 0x01
        var parts = segments(valid)
        parts[2] = Self.base64URL(parsed)
        #expect(reason(parts.joined(separator: ".")) == .badSignature)
    }

    @Test("A signature that is not 64 bytes is refused", arguments: [0, 63, 65, 72])
    func signatureLength(length: Int) throws {
        var parts = segments(valid)
        parts[2] = Self.base64URL([UInt8](repeating: 0x42, count: length))
        #expect(reason(parts.joined(separator: ".")) == .badSignature)
    }

    @Test("A DER-encoded signature (not raw r‖s) is refused")
    func derSignature() throws {
        let raw = try CompactJWS.parse(valid).get().signature
        let der: [UInt8] = [0x30, 0x44, 0x02, 0x20] + raw.prefix(32) + [0x02, 0x20] + raw.suffix(32)
        var parts = segments(valid)
        parts[2] = Self.base64URL(der)
        #expect(reason(parts.joined(separator: ".")) == .badSignature)
    }

    @Test(
        "alg none, HS256, lower-case es256 or missing is an unsupported algorithm",
        arguments: ["none", "HS256", "es256", "RS256", ""])
    func algorithm(alg: String) throws {
        let header = JWSHeaderOverride(alg: alg.isEmpty ? nil : alg)
        let jws = try signer.sign(payload: TestPKI.payload(), header: header)
        #expect(reason(jws) == .unsupportedAlgorithm)
    }

    @Test("Not three segments is malformed", arguments: ["", "a", "a.b", "a.b.c.d", "a.b.c.d.e"])
    func segmentCount(text: String) {
        #expect(TestPKI.reason(CompactJWS.parse(text).map { _ in () }) == .malformedJWS)
    }

    @Test("Four segments built from a valid JWS are malformed")
    func extraSegment() {
        #expect(reason(valid + ".AAAA") == .malformedJWS)
    }

    @Test("A segment that is not base64url is bad base64", arguments: [0, 1, 2])
    func badBase64Segment(position: Int) {
        var parts = segments(valid)
        parts[position] = "%%%" + parts[position]
        #expect(reason(parts.joined(separator: ".")) == .badBase64)
    }

    @Test("A padded signature segment is bad base64url: one signature has one spelling, so one JWS one identity")
    func paddedSignatureSegment() {
        var parts = segments(valid)
        // 64 bytes are 86 characters of base64url; "==" makes them a multiple of 4, which padding used to pass.
        #expect(parts[2].count == 86)
        parts[2] += "=="
        #expect(reason(parts.joined(separator: ".")) == .badBase64)
    }

    @Test("Standard-alphabet characters in a segment are bad base64url")
    func standardAlphabetInSegment() {
        var parts = segments(valid)
        parts[1] = parts[1] + "+/"
        #expect(reason(parts.joined(separator: ".")) == .badBase64)
    }

    @Test(
        "A header that is base64url but not a JSON object is malformed",
        arguments: ["[1,2]", "\"ES256\"", "not json", ""])
    func headerNotObject(raw: String) throws {
        let jws = try signer.sign(payload: TestPKI.payload(), header: .init(rawHeader: raw))
        #expect(reason(jws) == .malformedJWS)
    }

    @Test("Every reason has a distinct stable code")
    func reasonCodes() {
        let codes = JWSFailureReason.allCases.map(\.rawValue)
        #expect(Set(codes).count == codes.count)
        #expect(codes.contains("certificate_expired"))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
