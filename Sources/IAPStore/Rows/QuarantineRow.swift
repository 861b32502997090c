/// A document that could not be accepted, with the reason code and a sentence for the user.
public struct QuarantineRow: Sendable, Equatable {
    /// Where it was.
    public var position: DocumentPosition
    /// The file's path when read.
    public var path: String
    /// Reason code (see `QuarantineReason` in IAPPipeline and the README).
    public var reason: String
    /// What is wrong and what to do, as a sentence.
    public var message: String
    /// The first bytes of the document, for a reviewer (at most 200 characters, valid UTF-8).
    public var excerpt: String

    /// Creates a row.
    public init(position: DocumentPosition, path: String, reason: String, message: String, excerpt: String) {
        self.position = position
        self.path = path
        self.reason = reason
        self.message = message
        self.excerpt = excerpt
    }
}
