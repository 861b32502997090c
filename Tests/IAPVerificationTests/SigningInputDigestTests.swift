import Foundation
import IAPFormats
import Testing

@testable import IAPVerification

/// The digest a signature is checked against must be SHA-256 of exactly `header.payload`, whether the header's
/// hashing state came from the cache (a header seen before) or not.
@Suite struct SigningInputDigestTests {
    private func base64url(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private func directDigest(_ signingInput: String) -> [UInt8] {
        Array(signingInput.utf8).withUnsafeBytes { MemoryDigest.sha256($0) }
    }

    @Test func theDigestIsThatOfTheWholeSigningInputForNewAndCachedHeaders() throws {
        let signature = base64url(String(repeating: "s", count: 64))
        // A header longer than one SHA-256 block and not a multiple of it, so the cached state holds a partial block.
        let header = base64url(
            #"{"alg":"ES256","kid":"\#(UUID().uuidString)","x5c":["\#(String(repeating: "A", count: 150))"]}"#)
        let otherHeader = base64url(#"{"alg":"ES256","kid":"\#(UUID().uuidString)"}"#)
        let payloads = [#"{"signedDate":1}"#, #"{"signedDate":2,"data":"\#(String(repeating: "x", count: 300))"}"#, ""]
        for headerSegment in [header, otherHeader, header, otherHeader] {
            for payload in payloads {
                let signingInput = headerSegment + "." + base64url(payload)
                let jws = try CompactJWS.parse(signingInput + "." + signature).get()
                #expect(jws.signingInputDigest == directDigest(signingInput))
                #expect(jws.payload == Array(payload.utf8))
                #expect(
                    jws.identity == MemoryDigest.sha256Hex(directDigest(signingInput) + Array(".\(signature)".utf8)))
            }
        }
    }
}
