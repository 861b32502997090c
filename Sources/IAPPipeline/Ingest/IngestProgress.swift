import IAPStore
import Foundation

/// A progress report during a long ingest.
public struct IngestProgress: Sendable, Equatable {
    /// Files done (read or skipped) so far.
    public var filesDone: Int
    /// Files to go through in total.
    public var totalFiles: Int
    /// Documents read so far.
    public var documents: Int
    /// Quarantined so far.
    public var quarantined: Int
    /// Seconds since the stage started.
    public var elapsedSeconds: Double
    /// True for the final report.
    public var isFinal: Bool

    /// Documents per second so far.
    public var rate: Double { elapsedSeconds > 0 ? Double(documents) / elapsedSeconds : 0 }
}

/// Emits a progress report at most once a second, and once at the end.
struct ProgressTracker {
    private let report: (@Sendable (IngestProgress) -> Void)?
    private var state: IngestProgress
    private let start = Date()
    private var lastReport = Date()

    init(totalFiles: Int, report: (@Sendable (IngestProgress) -> Void)?) {
        self.report = report
        state = IngestProgress(filesDone: 0, totalFiles: totalFiles, documents: 0, quarantined: 0, elapsedSeconds: 0, isFinal: false)
    }

    mutating func add(documents: Int, quarantined: Int) {
        state.documents += documents
        state.quarantined += quarantined
        emitIfDue()
    }

    mutating func fileDone() {
        state.filesDone += 1
        emitIfDue()
    }

    mutating func finish() {
        state.isFinal = true
        state.elapsedSeconds = Date().timeIntervalSince(start)
        report?(state)
    }

    private mutating func emitIfDue() {
        guard let report, Date().timeIntervalSince(lastReport) >= 1 else { return }
        lastReport = Date()
        state.elapsedSeconds = lastReport.timeIntervalSince(start)
        report(state)
    }
}
