/// One document found in an input file (a line, or one entry of a page), and what became of it.
public struct DocumentRow: Sendable, Equatable {
    /// Where the document sits: file content hash, 1-based line, entry (0 for the whole line).
    public var position: DocumentPosition
    /// `v2_notification`, `notification_history_entry`, `v1_notification`, `refund_history_entry`,
    /// `order_lookup_entry`, `order_lookup` or `unknown`.
    public var kind: DocumentKind
    /// What happened to it.
    public var outcome: DocumentOutcome
    /// Its identity when stored (notification UUID, `v1:<sha>`, `jws:<sha>`); nil when quarantined.
    public var documentId: String?
    /// Normalised environment, when known.
    public var environment: String?
    /// Document time (Documentation/Reports.md), when known.
    public var documentTime: Int64?
    /// Whether its signatures were checked (false under `--no-verify`).
    public var isVerified: Bool

    /// Creates a row.
    /// Inlinable: ingest makes one for nearly every document in another module, where the row is then built in
    /// place; called, the initializer built it aside and copied it out (a retain and a release per string).
    @inlinable public init(
        position: DocumentPosition, kind: DocumentKind, outcome: DocumentOutcome, documentId: String?,
        environment: String?,
        documentTime: Int64?, isVerified: Bool
    ) {
        self.position = position
        self.kind = kind
        self.outcome = outcome
        self.documentId = documentId
        self.environment = environment
        self.documentTime = documentTime
        self.isVerified = isVerified
    }
}

/// The place of a document in the input: stable across reruns because files are keyed by content.
public struct DocumentPosition: Sendable, Equatable, Hashable {
    /// SHA-256 (hex) of the file's bytes as stored on disk.
    public var fileSHA256: String
    /// 1-based line (1 for a `.json` file).
    public var line: Int
    /// 0 for the document on the line; n for the n-th entry of a page.
    public var entry: Int

    /// Creates a position.
    @inlinable public init(fileSHA256: String, line: Int, entry: Int) {
        self.fileSHA256 = fileSHA256
        self.line = line
        self.entry = entry
    }
}

/// What ingest did with a document.
public enum DocumentOutcome: String, Sendable, CaseIterable {
    /// Verified, of this app and environment, not TEST: counted.
    case accepted
    /// Verified and of this app, but of another environment: stored, never counted.
    case otherEnvironment = "other_environment"
    /// A TEST notification: stored, never counted.
    case testNotification = "test_notification"
    /// Not readable, not verifiable or not this app's: kept in quarantine with a reason.
    case quarantined
}
