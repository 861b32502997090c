/// Failures of an analysis as a whole.
public enum AnalysisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An option is out of range or malformed.
    case invalidOptions(String)
    /// A model listed in the manifest has no file.
    case sqlModelMissing(name: String, path: String)
    /// A model failed to build; the whole analysis was rolled back.
    case modelFailed(name: String, reason: String)
    /// `reportSet` was called before `analyze`.
    case notAnalyzed
    /// `reportSet` was called with options other than those the models were built with.
    case analyzedWithOtherOptions
    /// Reading the store failed.
    case readFailed(reason: String)
    /// `--month` asked for a month before the archive's first observed month (nil: the store holds no notification).
    case monthBeforeArchive(month: String, firstObserved: String?)
    /// `--month` asked for a month after the month of T: the archive has not seen it.
    case monthAfterData(month: String, asOf: String)

    /// A sentence the user can act on.
    public var description: String {
        switch self {
        case .invalidOptions(let message):
            return message
        case .sqlModelMissing(let name, let path):
            return
                "The SQL model \(name) is missing (\(path)): unset IAPLENS_SQL_DIR to use the models built into iaplens, or rebuild it (swift build -c release)."
        case .modelFailed(let name, let reason):
            return "Building the model \(name) failed and nothing was changed: \(reason)."
        case .notAnalyzed:
            return "The store has not been analyzed yet: run iaplens analyze (or run) first."
        case .analyzedWithOtherOptions:
            return
                "The store was analyzed with other options: run iaplens analyze again with the same options as report."
        case .readFailed(let reason):
            return "Reading the analysis from the store failed: \(reason)."
        case .monthBeforeArchive(let month, let firstObserved?):
            return
                "--month \(month) is before the archive's first observed month, \(firstObserved): the months before it are rebuilt from later documents and hold only the subscribers who survived into the archive, so they are never reported. Ask for \(firstObserved) or later."
        case .monthAfterData(let month, let asOf):
            return "--month \(month) is after the month of the figures' as-of time, \(asOf) (the newest document, or "
                + "--as-of): the archive has not seen it, so it is never reported. Ask for \(asOf.prefix(7)) or earlier, or "
                + "ingest the newer documents first."
        case .monthBeforeArchive(let month, nil):
            return
                "--month \(month) cannot be reported: the store holds no accepted notification, so no month has been observed. Ingest the archive's notifications first."
        }
    }
}
