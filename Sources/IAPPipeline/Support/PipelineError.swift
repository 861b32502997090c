/// Run-level failures (a per-document problem is quarantined instead). Each prints as a sentence that
/// says what to do, and maps to a distinct exit code.
public enum PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another run holds the store.
    case storeBusy(holder: String)
    /// The lock file could not be created.
    case cannotLock(path: String, reason: String)
    /// A configuration value is missing or invalid.
    case invalidConfiguration(String)
    /// A reference file (products.csv / accounts.csv) is invalid.
    case invalidReferenceFile(String)
    /// The store or the reports folder ran out of space or cannot be written (``StorageFailure``).
    case storage(String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .storeBusy(let holder):
            return "The store is in use by \(holder); wait for that run to finish (runs of one store must not overlap)."
        case .cannotLock(let path, let reason):
            return "Cannot create the lock file \(path): \(reason). Check that the database folder is writable."
        case .invalidConfiguration(let message):
            return message
        case .invalidReferenceFile(let message):
            return message
        case .storage(let sentence):
            return sentence
        }
    }

    /// Exit code for the command line: 75 (EX_TEMPFAIL) when busy, so schedulers can retry later.
    public var exitCode: Int32 {
        switch self {
        case .storeBusy: return 75
        case .cannotLock: return 73
        case .invalidConfiguration, .invalidReferenceFile: return 64
        case .storage: return 1
        }
    }
}
