public import Foundation

/// A verification failure: a machine-readable reason plus one sentence a user can act on.
public struct JWSVerificationFailure: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The rule that failed.
    public let reason: JWSFailureReason
    /// One sentence for a user, saying what is wrong and, where possible, what to do.
    public let message: String

    /// Makes a failure from a reason and a user-facing sentence.
    public init(_ reason: JWSFailureReason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The message followed by the stable reason code, e.g. `"… (untrusted_chain)"`.
    public var description: String { "\(message) (\(reason.rawValue))" }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
