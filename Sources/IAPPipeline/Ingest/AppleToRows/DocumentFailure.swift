import IAPStore
/// Why one document was not accepted: a reason code and a sentence. A value, never thrown past ingest.
struct DocumentFailure: Error, Sendable, Equatable {
    let reason: QuarantineReason
    let message: String

    init(_ reason: QuarantineReason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The same failure, with the place inside the document it concerns (e.g. a nested JWS).
    func at(_ field: String) -> DocumentFailure {
        DocumentFailure(reason, "\(field): \(message)")
    }
}
