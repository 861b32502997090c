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

    /// Splits and decodes a compact JWS without checking anything cryptographic.
    ///
    /// Fails with `.malformedJWS` unless there are exactly three segments and the header is a JSON object,
    /// and with `.badBase64` when a segment is not base64url.
    public static func parse(_ jws: String) -> Result<CompactJWS, JWSVerificationFailure> {
        let segments = jws.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            let count = jws.split(separator: ".", omittingEmptySubsequences: false).count
            return .failure(.init(
                .malformedJWS,
                "The JWS has \(count) dot-separated segment\(count == 1 ? "" : "s"); a compact JWS has exactly 3 "
                    + "(header.payload.signature)."
            ))
        }
        let names = ["header", "payload", "signature"]
        var decoded: [[UInt8]] = []
        for (index, segment) in segments.enumerated() {
            guard let bytes = Base64Decoding.decode(segment, alphabet: .url) else {
                return .failure(.init(.badBase64, "The JWS \(names[index]) segment is not valid base64url."))
            }
            decoded.append(bytes)
        }
        guard let header = decodeHeader(decoded[0]) else {
            return .failure(.init(.malformedJWS, "The JWS header is not a JSON object."))
        }
        return .success(CompactJWS(
            headerSegment: String(segments[0]), payloadSegment: String(segments[1]),
            header: header, payload: decoded[1], signature: decoded[2]
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
