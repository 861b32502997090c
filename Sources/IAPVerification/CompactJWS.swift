import Foundation
import IAPFormats

/// The three parts of a compact JWS, decoded but not yet trusted.
public struct CompactJWS: Sendable {
    /// The JWS text: a string of its own, or a range of a larger document (a notification's line, or the payload a
    /// nested JWS sits in), read in place so its kilobytes are never copied into a `String`.
    private let source: InPlaceString
    private let firstDot: Int
    private let secondDot: Int
    /// SHA-256 of the signing input `header.payload` (the text before the second dot): what ES256 signs,
    /// computed once while the bytes are at hand, for the signature check and the document's identity.
    public let signingInputDigest: [UInt8]
    /// The decoded protected header.
    public let header: JWSHeader
    /// The base64url-decoded payload bytes (JSON text for Apple's payloads).
    public let payload: [UInt8]
    /// The decoded signature: the raw 64-byte `r‖s` for ES256.
    public let signature: [UInt8]

    /// The JWS exactly as sent.
    public var text: String { source.string }

    /// The header segment exactly as sent (base64url).
    public var headerSegment: String { segment(0, firstDot) }
    /// The payload segment exactly as sent (base64url).
    public var payloadSegment: String { segment(firstDot + 1, secondDot) }
    /// The signature segment exactly as sent (base64url).
    public var signatureSegment: String { segment(secondDot + 1, source.utf8Count) }

    private func segment(_ start: Int, _ end: Int) -> String {
        source.withUTF8 { bytes in String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) }
    }

    /// An identity of the exact JWS text from its signing-input digest: SHA-256 of the digest, a dot and the
    /// signature segment, in hex. Two JWS share it only if their text is identical (short of a SHA-256
    /// collision), and it costs a 120-byte hash instead of a second pass over a 13 KB notification.
    public var identity: String {
        source.withUTF8 { bytes in
            SigningInputDigest.identity(
                digest: signingInputDigest, signatureSegment: UnsafeBufferPointer(rebasing: bytes[(secondDot + 1)...]))
        }
    }

    /// Splits and decodes a compact JWS without checking anything cryptographic.
    ///
    /// Fails with `.malformedJWS` unless there are exactly three segments and the header is a JSON object,
    /// and with `.badBase64` when a segment is not base64url.
    public static func parse(_ jws: String) -> Result<CompactJWS, JWSVerificationFailure> {
        parse(InPlaceString(jws))
    }

    /// ``parse(_:)-(String)`` for a JWS that may lie in a larger document: the JWS keeps the document, not a copy.
    public static func parse(_ jws: InPlaceString) -> Result<CompactJWS, JWSVerificationFailure> {
        // One pass over the UTF-8 bytes: `String.split` would walk grapheme clusters, which costs more than the
        // base64 and JSON decoding together on a 4 KB JWS.
        jws.withUTF8 { parse(bytes: $0, source: jws) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>, source: InPlaceString) -> Result<
        CompactJWS, JWSVerificationFailure
    > {
        var firstDot = -1
        var secondDot = -1
        var extraDot = false
        if let base = bytes.baseAddress, let found = memchr(base, Int32(UInt8(ascii: ".")), bytes.count) {
            firstDot = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let after = firstDot + 1
            if let next = memchr(base + after, Int32(UInt8(ascii: ".")), bytes.count - after) {
                secondDot = base.distance(to: next.assumingMemoryBound(to: UInt8.self))
                let rest = secondDot + 1
                extraDot = memchr(base + rest, Int32(UInt8(ascii: ".")), bytes.count - rest) != nil
            }
        }
        guard firstDot >= 0, secondDot >= 0, !extraDot else {
            let count = bytes.reduce(1) { $1 == UInt8(ascii: ".") ? $0 + 1 : $0 }
            return .failure(
                .init(
                    .malformedJWS,
                    "The JWS has \(count) dot-separated segment\(count == 1 ? "" : "s"); a compact JWS has exactly 3 "
                        + "(header.payload.signature)."
                ))
        }
        let headerBytes = UnsafeBufferPointer(rebasing: bytes[0..<firstDot])
        let payloadBytes = UnsafeBufferPointer(rebasing: bytes[(firstDot + 1)..<secondDot])
        let signatureBytes = UnsafeBufferPointer(rebasing: bytes[(secondDot + 1)...])
        // Archives repeat a handful of headers (one per signing chain) millions of times: a header segment seen
        // before, byte for byte, decodes to the same header and starts the signing input the same way, so neither
        // its base64 and JSON nor its SHA-256 are computed again.
        let cached: HeaderCache.Entry
        if let hit = HeaderCache.shared.entry(for: headerBytes) {
            cached = hit
        } else {
            guard let decodedHeader = Base64Decoding.decode(bytes: headerBytes, alphabet: .url) else {
                return .failure(.init(.badBase64, "The JWS header segment is not valid base64url."))
            }
            guard let parsed = decodeHeader(decodedHeader) else {
                // Reported after the other segments' base64, as before the cache existed.
                if Base64Decoding.decode(bytes: payloadBytes, alphabet: .url) == nil {
                    return .failure(.init(.badBase64, "The JWS payload segment is not valid base64url."))
                }
                if Base64Decoding.decode(bytes: signatureBytes, alphabet: .url) == nil {
                    return .failure(.init(.badBase64, "The JWS signature segment is not valid base64url."))
                }
                return .failure(.init(.malformedJWS, "The JWS header is not a JSON object."))
            }
            cached = HeaderCache.Entry(segment: headerBytes, header: parsed)
            HeaderCache.shared.store(cached)
        }
        guard let payload = Base64Decoding.decode(bytes: payloadBytes, alphabet: .url) else {
            return .failure(.init(.badBase64, "The JWS payload segment is not valid base64url."))
        }
        guard let signature = Base64Decoding.decode(bytes: signatureBytes, alphabet: .url) else {
            return .failure(.init(.badBase64, "The JWS signature segment is not valid base64url."))
        }
        return .success(
            CompactJWS(
                source: source, firstDot: firstDot, secondDot: secondDot,
                signingInputDigest: cached.signingPrefix.sha256(continuingWith: UnsafeRawBufferPointer(payloadBytes)),
                header: cached.header, payload: payload, signature: signature
            ))
    }

    /// Reads the header leniently: a field of the wrong type reads as absent, so the verifier reports the
    /// rule it breaks (`alg`, `x5c`) instead of a generic parse error.
    private static func decodeHeader(_ bytes: [UInt8]) -> JWSHeader? {
        guard let object = try? JSONDecoder().decode(LenientHeader.self, from: Data(bytes)) else { return nil }
        return JWSHeader(alg: object.alg, x5c: object.x5c, kid: object.kid, typ: object.typ)
    }

    private struct LenientHeader: Decodable {
        let alg: String?
        let x5c: [String]?
        let kid: String?
        let typ: String?

        private enum CodingKeys: String, CodingKey { case alg, x5c, kid, typ }

        init(from decoder: any Decoder) throws {
            // Requiring a keyed container is what rejects headers that are arrays, strings or numbers.
            let container = try decoder.container(keyedBy: CodingKeys.self)
            alg = try? container.decodeIfPresent(String.self, forKey: .alg)
            x5c = try? container.decodeIfPresent([String].self, forKey: .x5c)
            kid = try? container.decodeIfPresent(String.self, forKey: .kid)
            typ = try? container.decodeIfPresent(String.self, forKey: .typ)
        }
    }
}
