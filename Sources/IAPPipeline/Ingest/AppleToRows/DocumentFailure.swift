import IAPModel
import IAPStore

/// Why one document was not accepted: a reason code and a sentence. A value, never thrown past ingest.
struct DocumentFailure: Error, Sendable, Equatable {
    let reason: QuarantineReason
    let message: String

    init(_ reason: QuarantineReason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// A signed payload that did not decode: `bad_field` for a value outside what the App Store sends (a price of
    /// 10^20, a date in 2300), `bad_payload` for anything else (a missing ID, a wrong type).
    static func undecodablePayload(_ error: any Error, at field: String? = nil) -> DocumentFailure {
        let reason: QuarantineReason = (error as? ModelDecodingError)?.isOutOfBounds == true ? .badField : .badPayload
        return DocumentFailure(reason, (field.map { "\($0): " } ?? "") + "\(error)")
    }

    /// The same failure, with the place inside the document it concerns (e.g. a nested JWS).
    func at(_ field: String) -> DocumentFailure {
        DocumentFailure(reason, "\(field): \(message)")
    }
}
