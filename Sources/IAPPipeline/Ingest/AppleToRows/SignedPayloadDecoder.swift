import IAPFormats
import IAPModel
import IAPStore
import IAPVerification

/// Turns one compact JWS into its trusted JSON payload: parse, read `signedDate`, verify the chain and
/// signature at that date (unless verification is off), in the order Apple's libraries do.
struct SignedPayloadDecoder: Sendable {
    /// nil when `--no-verify` was given.
    let verifier: JWSVerifier?

    struct Decoded: Sendable {
        /// The payload's top-level object, for one model to decode.
        let payload: FieldReader
        let signedDate: Int64?
        let jws: CompactJWS

        /// Identity of the exact JWS text (``CompactJWS/identity``), from the digest the signature check used:
        /// the JWS is hashed once. Computed only for the JWS whose identity is stored (not renewal infos).
        var identity: String { jws.identity }
    }

    /// - Parameters:
    ///   - jws: a string of its own, or left where it lies in its line or payload (``InPlaceString``).
    ///   - fallbackSignedDate: the enclosing notification's `signedDate`, used for nested JWS that carry none.
    func decode(_ jws: InPlaceString, fallbackSignedDate: Int64? = nil) -> Result<Decoded, DocumentFailure> {
        let compact: CompactJWS
        switch CompactJWS.parse(jws) {
        case .success(let parsed): compact = parsed
        case .failure(let failure): return .failure(Self.failure(failure))
        }
        // Apple's payloads are read in place (FlatJSONObject); anything else is parsed into a tree, which also
        // words every error.
        let payload: FieldReader
        let signedDateValue: JSONValue?
        var signedDateInPlace: Int64?
        // Off under `IAPLENS_REFERENCE=in-place-json`: every payload is then parsed into a tree, the reference.
        if FastPath.inPlaceJSON.isEnabled, let flat = FlatJSONObject.parse(compact.payload) {
            payload = FieldReader(flat)
            let position = flat.position(of: "signedDate", from: 0)
            // An integer is read from its digits; anything else as a value, below.
            signedDateInPlace = position.flatMap(flat.int64(at:))
            signedDateValue = signedDateInPlace == nil ? position.map(flat.value(at:)) : nil
        } else {
            let value: JSONValue
            do {
                value = try JSONParser.parse(compact.payload)
            } catch {
                return .failure(DocumentFailure(.badPayload, "The signed payload is not valid JSON (\(error))."))
            }
            guard case .object(let object) = value else {
                return .failure(
                    DocumentFailure(.badPayload, "The signed payload is \(value.typeDescription), not a JSON object."))
            }
            payload = FieldReader(object)
            signedDateValue = object["signedDate"]
        }
        let signedDate =
            signedDateInPlace
            ?? signedDateValue?.numberValue.flatMap { number in
                number.int64 ?? number.double.flatMap { $0.isFinite && abs($0) < 9.0e15 ? Int64($0) : nil }
            }
        if let verifier {
            guard let time = signedDate ?? fallbackSignedDate else {
                return .failure(
                    DocumentFailure(
                        .missingSignedDate, "The signed payload has no signedDate to check its certificates at."))
            }
            if case .failure(let failure) = verifier.verify(compact, atMillis: time) {
                return .failure(Self.failure(failure))
            }
        }
        return .success(Decoded(payload: payload, signedDate: signedDate, jws: compact))
    }

    static func failure(_ failure: JWSVerificationFailure) -> DocumentFailure {
        let reason = QuarantineReason(failure.reason)
        return DocumentFailure(reason, failure.message)
    }
}

extension SignedPayloadDecoder {
    /// A verified signed transaction and the identity of its JWS.
    struct DecodedTransaction: Sendable {
        let payload: JWSTransactionDecodedPayload
        let identity: String
    }

    /// Decodes and verifies a signed transaction.
    ///
    /// Throws its failure instead of returning a `Result`: a `Result` (or an optional tuple) holding a payload of
    /// some twenty strings was copied and destroyed through the runtime's generic witnesses, twice per
    /// transaction (Documentation/Performance.md, "Retains, copies and purges").
    func decodeTransaction(_ jws: InPlaceString, fallbackSignedDate: Int64? = nil) throws(DocumentFailure)
        -> DecodedTransaction
    {
        let decoded: Decoded
        switch decode(jws, fallbackSignedDate: fallbackSignedDate) {
        case .failure(let failure): throw failure
        case .success(let value): decoded = value
        }
        do {
            return DecodedTransaction(
                payload: try JWSTransactionDecodedPayload(reader: decoded.payload), identity: decoded.identity)
        } catch {
            throw .undecodablePayload(error)
        }
    }
}
