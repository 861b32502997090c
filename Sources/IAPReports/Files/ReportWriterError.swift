/// Why the reports could not be written. Each case names the path involved and prints as an actionable sentence.
public enum ReportWriterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A month name is not `YYYY-MM`, so it cannot name a folder safely.
    case invalidMonth(month: String)
    /// A row has a different number of cells than the table's header.
    case rowWidthMismatch(path: String, row: Int, expected: Int, found: Int)
    /// A folder could not be created.
    case cannotCreateDirectory(path: String, errno: Int32)
    /// A file could not be written, flushed or moved into place.
    case cannotWrite(path: String, operation: String, errno: Int32)

    /// The sentence the CLI prints.
    public var description: String {
        switch self {
        case .invalidMonth(let month):
            return "Cannot write a report for month \"\(month)\": a month must be written YYYY-MM. "
                + "This is a bug in the analytics stage; please report it."
        case .rowWidthMismatch(let path, let row, let expected, let found):
            return "Cannot write \(path): data row \(row) has \(found) cells but the header has \(expected). "
                + "This is a bug in the analytics stage; please report it."
        case .cannotCreateDirectory(let path, let code):
            return "Cannot create the folder \(path) (\(ReportFileSystem.message(code))). "
                + "Check that --reports points to a writable location."
        case .cannotWrite(let path, let operation, let code):
            return "Cannot write \(path): \(operation) failed (\(ReportFileSystem.message(code))). "
                + "Check free space and permissions of the reports folder."
        }
    }
}
