/// What ``ReportWriter/write(_:)`` did: which files got new bytes and which already had them.
public struct ReportWriteSummary: Sendable, Equatable {
    /// Paths whose content changed (or which did not exist), in write order.
    public var written: [String]
    /// Paths that already held exactly these bytes and were left untouched (mtime kept).
    public var unchanged: [String]

    /// Creates a summary.
    public init(written: [String] = [], unchanged: [String] = []) {
        self.written = written
        self.unchanged = unchanged
    }

}
