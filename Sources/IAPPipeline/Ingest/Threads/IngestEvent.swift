import IAPFormats
import IAPStore

/// What flows from the archive reader, through the processing stage, to the loader, in input order.
enum IngestEvent: Sendable {
    /// A file whose content is already in the store (or was met earlier in this run under another name).
    case skipped(InputFile)
    /// A file that could not be read to compute its content hash.
    case unreadable(InputFile, reason: String)
    /// A new file: its documents follow.
    case started(SourceFile)
    /// Documents (and read failures) of the current file, as read; the processing stage turns them into `processed`.
    case read(SourceFile, [DocumentReadResult])
    /// The store rows of the documents of one `read` chunk, in the same order.
    case processed(SourceFile, [DocumentBatch])
    /// The end of the current file.
    case finished(SourceFile)
    /// The end of the current file, whose bytes changed while it was read: its rows are removed (it is read
    /// afresh next run).
    case changed(SourceFile)
}
