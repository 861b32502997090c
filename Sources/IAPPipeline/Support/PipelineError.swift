import IAPFormats
import IAPStore

/// Run-level failures (a per-document problem is quarantined instead). Each prints as a sentence that says what to
/// do, and maps to one of the command line's ``ExitStatus``es. (A busy or unlockable store is a ``StoreError``.)
public enum PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A configuration value is missing or invalid.
    case invalidConfiguration(String)
    /// A reference file (`products.csv`, `accounts.csv`, `reviews.csv`) is invalid: every problem found in it.
    case invalidReferenceFile(ReferenceFileError)
    /// The store or the reports folder ran out of space or cannot be written (``StorageFailure``).
    case storage(String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .invalidConfiguration(let message):
            return message
        case .invalidReferenceFile(let error):
            return error.description
        case .storage(let sentence):
            return sentence
        }
    }

    /// The sentences to print, one per log line: a reference file's problems each on its own.
    public var lines: [String] {
        if case .invalidReferenceFile(let error) = self { return error.lines }
        return [description]
    }

    /// The command line's exit status for this failure.
    public var exitCode: Int32 {
        switch self {
        case .invalidConfiguration, .invalidReferenceFile: return ExitStatus.usage
        case .storage: return ExitStatus.failure
        }
    }
}
