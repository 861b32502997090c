// libFuzzer target for the decoding paths every input byte goes through on ingest: JSON parsing (limits, UTF-8,
// duplicate keys, numbers), document shapes and envelopes, compact JWS parsing, ES256 + x5c chain verification
// against a trusted root (OpenSSL, with a leaf key's precomputed table and without: both must give the same verdict),
// and the typed decoding of V2/V1 payloads. Built and run by scripts/fuzz.sh.
//
// Each input is tried three ways: as one archive line (shape → every JWS in it → payloads → nested JWS), as a
// bare JWS, and as a bare JSON payload for the model decoders. Any crash, trap or sanitizer report is a bug, and so
// is a payload or a line that ingest's in-place reading (FlatJSONObject) reads differently from JSONParser.
import Foundation
import IAPFormats
import IAPModel
import IAPVerification

private let roots: [TrustedRoot] = {
    if let path = ProcessInfo.processInfo.environment["IAPLENS_FUZZ_ROOT"], let loaded = try? TrustedRoot.load(fromFile: path) {
        return loaded
    }
    return (try? TrustedRoot.appleRootCAG3).map { [$0] } ?? []
}()

/// Two verifiers that must agree on every JWS: one checks with each leaf key's precomputed table from the first
/// signature on, the other always through EVP. Neither reuses an earlier verdict.
private let verifier: JWSVerifier? = try? JWSVerifier(trustedRoots: roots, reusingSignatures: false, keyTableAfter: 0)
private let evpVerifier: JWSVerifier? = try? JWSVerifier(trustedRoots: roots, reusingSignatures: false, keyTableAfter: .max)

/// 2022-03-15T12:00:00Z: a time the seed corpus's certificates are valid at, for JWS without a usable signedDate.
private let fallbackMillis: Int64 = 1_647_345_600_000

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
/// member and in every model decoded from it, errors included. A difference traps, like a crash.
private func checkFlat(_ bytes: [UInt8]) {
    guard let flat = FlatJSONObject.parse(bytes) else { return }
    guard let value = try? JSONParser.parse(bytes), let object = value.objectValue else {
        fatalError("FlatJSONObject accepted a document JSONParser rejects")
    }
    let read = flat.jsonObject()
    precondition(read == object && read.keys == object.keys, "FlatJSONObject read a document differently")
    precondition(
        outcome { try ResponseBodyV2DecodedPayload(reader: FieldReader(flat)) }
            == outcome { try ResponseBodyV2DecodedPayload(json: value) }
            && outcome { try JWSTransactionDecodedPayload(reader: FieldReader(flat)) }
                == outcome { try JWSTransactionDecodedPayload(json: value) }
            && outcome { try JWSRenewalInfoDecodedPayload(reader: FieldReader(flat)) }
                == outcome { try JWSRenewalInfoDecodedPayload(json: value) },
        "a model decoded differently from FlatJSONObject")
}

private func checkJWS(_ text: String, depth: Int = 0) {
    guard case .success(let jws) = CompactJWS.parse(text) else { return }
    checkFlat(jws.payload)
    let payload = try? JSONParser.parse(jws.payload)
    let signedDate = payload?["signedDate"]?.numberValue?.int64 ?? fallbackMillis
    if let verifier, let evpVerifier {
        let withTable = verifier.verify(jws, atMillis: signedDate)
        let throughEVP = evpVerifier.verify(jws, atMillis: signedDate)
        precondition(
            "\(withTable)" == "\(throughEVP)", "the precomputed table and EVP disagree: \(withTable) against \(throughEVP)")
    }
    guard let payload else { return }
    decodePayload(payload)
    // Nested JWS of a notification, verified on their own as ingest does.
    if depth == 0, let model = try? ResponseBodyV2DecodedPayload(json: payload) {
        if let nested = model.data?.signedTransactionInfo { checkJWS(nested.string, depth: 1) }
        if let nested = model.data?.signedRenewalInfo { checkJWS(nested.string, depth: 1) }
    }
}

/// Ingest recognises the common V2 line in place when it can; where it answers, it must be the parser's answer.
private func checkInPlaceLine(_ bytes: [UInt8]) {
    guard let line = DocumentShape.signedNotificationInPlace(bytes) else { return }
    let expected = RecognisedDocument(
        receivedAtMillis: line.receivedAtMillis,
        body: .v2Notification(signedPayload: String(decoding: bytes[line.signedPayload], as: UTF8.self)))
    guard case .success(let document) = DocumentShape.recognise(bytes), document == expected else {
        fatalError("DocumentShape read a line in place differently")
    }
}

private func checkDocument(_ bytes: [UInt8]) {
    checkInPlaceLine(bytes)
    guard case .success(let document) = DocumentShape.recognise(bytes) else { return }
    switch document.body {
    case .v2Notification(let jws): checkJWS(jws)
    case .v1Notification(let body): _ = try? ResponseBodyV1(body: body)
    case .notificationHistoryPage(let entries, _, _), .refundHistoryPage(let entries, _, _),
        .transactionHistoryPage(let entries, _, _), .orderLookup(_, _, let entries):
        for case .jws(let jws) in entries { checkJWS(jws) }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkDocument(bytes)
    checkFlat(bytes)
    checkJWS(String(decoding: bytes, as: UTF8.self))
    if let value = try? JSONParser.parse(bytes) { decodePayload(value) }
    _ = try? JSONParser.parse(bytes, maxDepth: 8, maxStringBytes: 64)
    return 0
}
