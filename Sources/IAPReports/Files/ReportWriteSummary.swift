/// What ``ReportWriter/write(_:)`` did: which files got new bytes, which already had them, which were stale.
public struct ReportWriteSummary: Sendable, Equatable {
    /// Paths whose content changed (or which did not exist), in write order.
    public var written: [String]
    /// Paths that already held exactly these bytes and were left untouched (mtime kept).
    public var unchanged: [String]
    /// Files iaplens wrote last time that the data no longer has (an account no longer flagged), and month folders
    /// the data no longer has.
    public var removed: [String]
    /// Folders inside the reports folder that are symbolic links (or files where a folder belongs): nothing was
    /// written into or removed from them, and the reports that belong there are missing until they are replaced
    /// by real folders.
    public var foreign: [String]
    /// The report set's warnings (``ReportSet/warnings``): what the person running `report` must hear now.
    public var warnings: [String]

    /// Creates a summary.
    public init(
        written: [String] = [], unchanged: [String] = [], removed: [String] = [], foreign: [String] = [],
        warnings: [String] = []
    ) {
        self.warnings = warnings
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
        self.foreign = foreign
    }
}
