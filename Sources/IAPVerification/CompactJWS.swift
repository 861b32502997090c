import Foundation

/// The three parts of a compact JWS, decoded but not yet trusted.
public struct CompactJWS: Sendable {
    /// The header segment exactly as sent (base64url); part of the signing input.
    public let headerSegment: String
    /// The payload segment exactly as sent (base64url); part of the signing input.
    public let payloadSegment: String
    /// The decoded protected header.
    public let header: JWSHeader
    /// The base64url-decoded payload bytes (JSON text for Apple's payloads).
    public let payload: [UInt8]
    /// The decoded signature: the raw 64-byte `r‖s` for ES256.
    public let signature: [UInt8]
    /// The signature segment exactly as sent (base64url).
    public let signatureSegment: String

    /// SHA-256 of the signing input `header.payload`: what ES256 signs, computed once per JWS.
    public func signingInputDigest() -> [UInt8] {
        SigningInputDigest.sha256(header: headerSegment, payload: payloadSegment)
    }

    /// An identity of the exact JWS text from its signing-input digest: SHA-256 of the digest, a dot and the
    /// signature segment, in hex. Two JWS share it only if their text is identical (short of a SHA-256
    /// collision), and it costs a 120-byte hash instead of a second pass over a 13 KB notification.
    public func identity(signingInputDigest digest: [UInt8]) -> String {
        SigningInputDigest.identity(digest: digest, signatureSegment: signatureSegment)
    }

    /// Splits and decodes a compact JWS without checking anything cryptographic.
    ///
    /// Fails with `.malformedJWS` unless there are exactly three segments and the header is a JSON object,
    /// and with `.badBase64` when a segment is not base64url.
    public static func parse(_ jws: String) -> Result<CompactJWS, JWSVerificationFailure> {
        var text = jws
        // One pass over the UTF-8 bytes: `String.split` would walk grapheme clusters, which costs more than the
        // base64 and JSON decoding together on a 4 KB JWS.
        return text.withUTF8 { parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Result<CompactJWS, JWSVerificationFailure> {
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
            return .failure(.init(
                .malformedJWS,
                "The JWS has \(count) dot-separated segment\(count == 1 ? "" : "s"); a compact JWS has exactly 3 "
                    + "(header.payload.signature)."
            ))
        }
        let headerBytes = UnsafeBufferPointer(rebasing: bytes[0..<firstDot])
        let payloadBytes = UnsafeBufferPointer(rebasing: bytes[(firstDot + 1)..<secondDot])
        let signatureBytes = UnsafeBufferPointer(rebasing: bytes[(secondDot + 1)...])
        // Archives repeat a handful of headers (one per signing chain) millions of times: a header segment seen
        // before, byte for byte, decodes to the same header, so its base64 and JSON are not decoded again.
        let header: JWSHeader
        if let cached = HeaderCache.shared.header(for: headerBytes) {
            header = cached
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
            HeaderCache.shared.store(parsed, for: headerBytes)
            header = parsed
        }
        guard let payload = Base64Decoding.decode(bytes: payloadBytes, alphabet: .url) else {
            return .failure(.init(.badBase64, "The JWS payload segment is not valid base64url."))
        }
        guard let signature = Base64Decoding.decode(bytes: signatureBytes, alphabet: .url) else {
            return .failure(.init(.badBase64, "The JWS signature segment is not valid base64url."))
        }
        // The segments were just validated as base64url, so they are ASCII and decode losslessly.
        return .success(CompactJWS(
            headerSegment: String(decoding: headerBytes, as: UTF8.self),
            payloadSegment: String(decoding: payloadBytes, as: UTF8.self),
            header: header, payload: payload, signature: signature,
            signatureSegment: String(decoding: signatureBytes, as: UTF8.self)
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
