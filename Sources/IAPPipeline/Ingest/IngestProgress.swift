import Foundation
import IAPStore

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
    /// What the stage is doing.
    public var phase: Phase = .loading

    /// The steps of a long ingest a user sees.
    public enum Phase: Sendable, Equatable {
        /// Reading, verifying and storing documents.
        case loading
        /// Every document is stored; the indexes a bulk load deferred are being built (seconds per million
        /// documents, with no documents to count meanwhile).
        case buildingIndexes
        /// The final report.
        case finished
    }

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
        state = IngestProgress(
            filesDone: 0, totalFiles: totalFiles, documents: 0, quarantined: 0, elapsedSeconds: 0, isFinal: false)
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

    /// Says that the documents are all stored and the deferred indexes are being built.
    mutating func buildingIndexes() {
        state.phase = .buildingIndexes
        state.elapsedSeconds = Date().timeIntervalSince(start)
        report?(state)
    }

    mutating func finish() {
        state.isFinal = true
        state.phase = .finished
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
