/// A file that looks like an Apple financial report but cannot be loaded as one.
public struct FinancialReportError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "The financial report \(file) cannot be loaded: \(reason)." }
}
