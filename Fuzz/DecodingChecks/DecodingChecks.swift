// The checks every input byte gets on the decoding paths ingest takes: JSON parsing (limits, UTF-8, duplicate keys,
// numbers), document shapes and envelopes, compact JWS parsing, ES256 + x5c chain verification against a trusted root
// (with a leaf key's precomputed table and through EVP: both must give the same verdict), and the typed decoding of
// V2/V1 payloads. Two users: the libFuzzer target (Fuzz/FuzzDecoding.swift, run by scripts/fuzz.sh), which traps on
// a problem, and `DecodingCorpusReplayTests`, which replays the seed corpus through the same checks on every test run.
//
// Each input is tried three ways: as one archive line (shape → every JWS in it → payloads → nested JWS), as a bare
// JWS, and as a bare JSON payload for the model decoders. A crash is a bug, and so is each problem returned: a fast
// path (the in-place readers, the table) that answers differently from its reference.
import Foundation
import IAPFormats
import IAPModel
import IAPVerification

public struct DecodingChecks: Sendable {
    /// Two verifiers that must agree on every JWS: one checks with each leaf key's precomputed table from the first
    /// signature on, the other always through EVP. Neither reuses an earlier verdict.
    private let verifier: JWSVerifier?
    private let evpVerifier: JWSVerifier?

    /// 2022-03-15T12:00:00Z: a time the seed corpus's certificates are valid at, for JWS without a usable signedDate.
    private static let fallbackMillis: Int64 = 1_647_345_600_000

    public init(roots: [TrustedRoot]) {
        verifier = try? JWSVerifier(trustedRoots: roots, keyTableAfter: 0)
        evpVerifier = try? JWSVerifier(trustedRoots: roots, keyTableAfter: .max)
    }

    /// Every check on one input; the problems found (none for a correct decoder, whatever the input).
    public func check(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        checkDocument(bytes, &problems)
        checkFlat(bytes, &problems)
        checkJWS(String(decoding: bytes, as: UTF8.self), &problems)
        if let value = try? JSONParser.parse(bytes) { decodePayload(value) }
        _ = try? JSONParser.parse(bytes, maxDepth: 8, maxStringBytes: 64)
        return problems
    }

    private func decodePayload(_ value: JSONValue) {
        _ = value.canonicalJSON()
        _ = try? ResponseBodyV2DecodedPayload(json: value)
        _ = try? JWSTransactionDecodedPayload(json: value)
        _ = try? JWSRenewalInfoDecodedPayload(json: value)
        if let object = value.objectValue { _ = try? ResponseBodyV1(body: object) }
    }

    /// The outcome of one decoder, as text: the model or the error's sentence.
    private func outcome<Model>(_ decode: () throws -> Model) -> String {
        do { return "\(try decode())" } catch { return "error: \(error)" }
    }

    /// Ingest reads a payload in place when it can (FlatJSONObject); that reading must be the parser's, member for
    /// member and in every model decoded from it, errors included.
    private func checkFlat(_ bytes: [UInt8], _ problems: inout [String]) {
        guard let flat = FlatJSONObject.parse(bytes) else { return }
        guard let value = try? JSONParser.parse(bytes), let object = value.objectValue else {
            problems.append("FlatJSONObject accepted a document JSONParser rejects")
            return
        }
        let read = flat.jsonObject()
        if read != object || read.keys != object.keys { problems.append("FlatJSONObject read a document differently") }
        let same =
            outcome { try ResponseBodyV2DecodedPayload(reader: FieldReader(flat)) }
            == outcome { try ResponseBodyV2DecodedPayload(json: value) }
            && outcome { try JWSTransactionDecodedPayload(reader: FieldReader(flat)) }
                == outcome { try JWSTransactionDecodedPayload(json: value) }
            && outcome { try JWSRenewalInfoDecodedPayload(reader: FieldReader(flat)) }
                == outcome { try JWSRenewalInfoDecodedPayload(json: value) }
        if !same { problems.append("a model decoded differently from FlatJSONObject") }
    }

    private func checkJWS(_ text: String, depth: Int = 0, _ problems: inout [String]) {
        guard case .success(let jws) = CompactJWS.parse(text) else { return }
        checkFlat(jws.payload, &problems)
        let payload = try? JSONParser.parse(jws.payload)
        let signedDate = payload?["signedDate"]?.numberValue?.int64 ?? Self.fallbackMillis
        if let verifier, let evpVerifier {
            let withTable = verifier.verify(jws, atMillis: signedDate)
            let throughEVP = evpVerifier.verify(jws, atMillis: signedDate)
            if "\(withTable)" != "\(throughEVP)" {
                problems.append("the precomputed table and EVP disagree: \(withTable) against \(throughEVP)")
            }
        }
        guard let payload else { return }
        decodePayload(payload)
        // Nested JWS of a notification, verified on their own as ingest does.
        if depth == 0, let model = try? ResponseBodyV2DecodedPayload(json: payload) {
            if let nested = model.data?.signedTransactionInfo { checkJWS(nested.string, depth: 1, &problems) }
            if let nested = model.data?.signedRenewalInfo { checkJWS(nested.string, depth: 1, &problems) }
        }
    }

    /// Ingest recognises the common V2 line in place when it can; where it answers, it must be the parser's answer.
    private func checkInPlaceLine(_ bytes: [UInt8], _ problems: inout [String]) {
        guard let line = DocumentShape.signedNotificationInPlace(bytes) else { return }
        let expected = RecognisedDocument(
            receivedAtMillis: line.receivedAtMillis,
            body: .v2Notification(signedPayload: String(decoding: bytes[line.signedPayload], as: UTF8.self)))
        guard case .success(let document) = DocumentShape.recognise(bytes), document == expected else {
            problems.append("DocumentShape read a line in place differently")
            return
        }
    }

    private func checkDocument(_ bytes: [UInt8], _ problems: inout [String]) {
        checkInPlaceLine(bytes, &problems)
        guard case .success(let document) = DocumentShape.recognise(bytes) else { return }
        switch document.body {
        case .v2Notification(let jws): checkJWS(jws, &problems)
        case .v1Notification(let body): _ = try? ResponseBodyV1(body: body)
        case .notificationHistoryPage(let entries, _, _), .refundHistoryPage(let entries, _, _),
            .transactionHistoryPage(let entries, _, _), .orderLookup(_, _, let entries):
            for case .jws(let jws) in entries { checkJWS(jws, &problems) }
        }
    }
}
