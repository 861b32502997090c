import Foundation
import IAPFormats
import IAPTestSigning
import IAPVerification
import Testing

@Suite("Sign then verify")
struct JWSRoundTripTests {
    @Test("A payload signed by a generated chain parses and verifies against that chain's root")
    func roundTrip() throws {
        let chain = try TestPKI.chain()
        let payload = TestPKI.payload()
        let jws = try JWSSigner(chain: chain).sign(payload: payload)
        let parsed = try CompactJWS.parse(jws).get()
        #expect(parsed.header.alg == "ES256")
        #expect(parsed.header.x5c == chain.x5c)
        #expect(parsed.payload == payload)
        #expect(parsed.signature.count == 64)
        let verifier = try TestPKI.verifier(trusting: chain)
        #expect(throws: Never.self) { try verifier.verify(parsed, atMillis: TestPKI.signedDate).get() }
    }

    @Test("The root Apple sends as x5c[2] is ignored: a junk third entry still verifies")
    func sentRootIsNotUsed() throws {
        let chain = try TestPKI.chain()
        let junkRoot = [chain.x5c[0], chain.x5c[1], "bm90IGEgY2VydGlmaWNhdGU="]
        let jws = try JWSSigner(chain: chain).sign(payload: TestPKI.payload(), header: .init(x5c: junkRoot))
        let verifier = try TestPKI.verifier(trusting: chain)
        #expect(TestPKI.reason(TestPKI.check(jws, with: verifier)) == nil)
    }

    @Test("Several trusted roots: each chain verifies against its own root")
    func severalRoots() throws {
        let first = try TestPKI.chain("first")
        let second = try TestPKI.chain("second")
        let verifier = try JWSVerifier(trustedRoots: [
            TrustedRoot(der: first.rootDER), TrustedRoot(der: second.rootDER),
        ])
        for chain in [first, second] {
            let jws = try JWSSigner(chain: chain).sign(payload: TestPKI.payload())
            #expect(TestPKI.reason(TestPKI.check(jws, with: verifier)) == nil)
        }
    }

    @Test("Extra header fields (kid, typ) are read and do not affect verification")
    func extraHeaderFields() throws {
        let chain = try TestPKI.chain()
        let jws = try JWSSigner(chain: chain).sign(
            payload: TestPKI.payload(), header: .init(extraFields: ["kid": "key-1", "typ": "JWT"])
        )
        let parsed = try CompactJWS.parse(jws).get()
        #expect(parsed.header.kid == "key-1")
        #expect(parsed.header.typ == "JWT")
        #expect(try TestPKI.reason(TestPKI.check(jws, with: TestPKI.verifier(trusting: chain))) == nil)
    }
}

/// A JWS read where it lies in a document is the same JWS as one parsed from its own string.
@Suite struct CompactJWSInPlaceTests {
    @Test func aJWSReadInPlaceEqualsTheSameTextParsedAlone() throws {
        let chain = try TestPKI.chain()
        let jws = try JWSSigner(chain: chain).sign(payload: TestPKI.payload())
        let prefix = Array(#"{"signedPayload":""#.utf8)
        let line = prefix + Array(jws.utf8) + Array(#""}"#.utf8)
        let inPlace = try CompactJWS.parse(
            InPlaceString(document: line, range: prefix.count..<(prefix.count + jws.utf8.count))
        ).get()
        let alone = try CompactJWS.parse(jws).get()
        #expect(inPlace.text == jws)
        #expect(inPlace.payload == alone.payload)
        #expect(inPlace.signature == alone.signature)
        #expect(inPlace.signingInputDigest == alone.signingInputDigest)
        #expect(inPlace.identity == alone.identity)
        #expect(inPlace.header == alone.header)
        #expect(inPlace.headerSegment == alone.headerSegment)
        #expect(inPlace.payloadSegment == alone.payloadSegment)
        #expect(inPlace.signatureSegment == alone.signatureSegment)
        let verifier = try TestPKI.verifier(trusting: chain)
        #expect(throws: Never.self) { try verifier.verify(inPlace, atMillis: TestPKI.signedDate).get() }
    }
}
