/// The exact signed text of a stored document, so the store can be rebuilt from itself.
public struct RawDocumentRow: Sendable, Equatable {
    /// The document's identity (same as in `documents`).
    public var documentId: String
    /// `jws` or `v1_json`.
    public var format: String
    /// The JWS, or the canonical JSON of a V1 body.
    public var body: String

    /// Creates a row.
    public init(documentId: String, format: String, body: String) {
        self.documentId = documentId
        self.format = format
        self.body = body
    }
}
