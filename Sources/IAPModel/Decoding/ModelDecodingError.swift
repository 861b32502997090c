/// A payload field that is present but unusable (wrong JSON type, out of range) or missing where the
/// pipeline needs it. Unknown enum values are *not* errors: they are kept raw.
public struct ModelDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Dotted path of the field, e.g. `data.signedTransactionInfo` or `unified_receipt.latest_receipt_info[2].purchase_date_ms`.
    public let keyPath: String
    /// What is wrong, as a clause ("is missing", "is a string, expected an integer").
    public let problem: String
    /// True when the field is well-formed but outside what the App Store sends (``AppStoreBounds``): quarantined
    /// as `bad_field` even inside a signed payload, where other problems are `bad_payload`.
    public let isOutOfBounds: Bool

    /// Creates an error.
    public init(keyPath: String, problem: String, isOutOfBounds: Bool = false) {
        self.keyPath = keyPath
        self.problem = problem
        self.isOutOfBounds = isOutOfBounds
    }

    /// A sentence a user can act on.
    public var description: String { "Field `\(keyPath)` \(problem)." }
}
