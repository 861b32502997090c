/// What ``ReportWriter/write(_:)`` did: which files got new bytes, which already had them, which were stale.
public struct ReportWriteSummary: Sendable, Equatable {
    /// Paths whose content changed (or which did not exist), in write order.
    public var written: [String]
    /// Paths that already held exactly these bytes and were left untouched (mtime kept).
    public var unchanged: [String]
    /// Charts and case pages removed because their month no longer has them (an account no longer flagged).
    public var removed: [String]

    /// Creates a summary.
    public init(written: [String] = [], unchanged: [String] = [], removed: [String] = []) {
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
    }
}
