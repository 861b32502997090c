import ArgumentParser
import Foundation
import IAPAnalytics
import IAPFetch
import IAPFormats
import IAPPipeline
import IAPReports
import IAPSimulator
import IAPStore
import Logging
import Synchronization

/// Printing for the command line: results to stdout; progress, warnings and errors to stderr as timestamped,
/// levelled log lines (swift-log, ``LogLine``), as much as `--quiet` / `--verbose` ask.
enum Console {
    private struct Settings {
        var isQuiet = false
        var isVerbose = false
        var isBootstrapped = false
    }

    private static let settings = Mutex(Settings())

    /// Sets the verbosity for this process (once; a command calls it first).
    static func configure(_ options: LogOptions) {
        let level: Logger.Level = options.isQuiet ? .warning : options.isVerbose ? .debug : .info
        let first = settings.withLock { state -> Bool in
            state.isQuiet = options.isQuiet
            state.isVerbose = options.isVerbose
            defer { state.isBootstrapped = true }
            return !state.isBootstrapped
        }
        if first { LoggingSystem.bootstrap { _ in LogLine(logLevel: level) } }
    }

    /// The command's logger (``configure(_:)`` first; the default level otherwise).
    static var log: Logger {
        if !settings.withLock({ $0.isBootstrapped }) { configure(LogOptions()) }
        return Logger(label: "iaplens")
    }

    /// True under `--quiet`: summaries on standard output are left out too.
    static var isQuiet: Bool { settings.withLock { $0.isQuiet } }

    /// True under `--verbose`.
    static var isVerbose: Bool { settings.withLock { $0.isVerbose } }

    static func error(_ text: String) {
        log.error("\(text)")
    }

    static func note(_ text: String) {
        log.info("\(text)")
    }

    static func warn(_ text: String) {
        log.warning("\(text)")
    }

    static func debug(_ text: String) {
        log.debug("\(text)")
    }

    /// A result line on standard output, unless `--quiet`.
    static func result(_ text: String) {
        if !isQuiet { print(TerminalText.safe(text)) }
    }

    /// Progress lines on stderr: at most one a second (long runs only), every step under `--verbose`.
    static let progress: @Sendable (IngestProgress) -> Void = { progress in
        guard !progress.isFinal, progress.elapsedSeconds >= 1 || isVerbose else { return }
        if progress.phase == .buildingIndexes {
            note(
                "ingest: \(progress.documents) documents stored; building the indexes this bulk load deferred "
                    + "(a few seconds per million documents)")
            return
        }
        note(
            String(
                format: "ingest: %d/%d files, %d documents (%.0f/s), %d quarantined",
                progress.filesDone, progress.totalFiles, progress.documents, progress.rate, progress.quarantined))
    }

    /// Progress of `analyze` on stderr: at most one line a second, after its first second (long runs only); every
    /// model under `--verbose`.
    static func analysisProgress() -> @Sendable (AnalysisProgress) -> Void {
        let isDue = progressGate(every: .seconds(1))
        return { progress in
            guard isDue(progress.elapsed, false) else { return }
            note(
                "analyze: \(progress.modelsBuilt)/\(progress.totalModels) models built (\(progress.lastModel)), "
                    + String(format: "%.1f s", Double(progress.elapsed / .milliseconds(1)) / 1000))
        }
    }

    /// Progress of a simulation on stderr: at most one line every two seconds, and the last one (long runs only; every
    /// batch under `--verbose`).
    static func simulationProgress() -> @Sendable (SimulationProgress) -> Void {
        let started = ContinuousClock.now
        let isDue = progressGate(every: .seconds(2))
        return { progress in
            guard isDue(ContinuousClock.now - started, progress.entitiesDone == progress.entitiesTotal) else { return }
            note(
                "simulate: \(progress.entitiesDone)/\(progress.entitiesTotal) customers (\(Int(progress.fraction * 100)) %), "
                    + "\(progress.documentsWritten) documents written")
        }
    }

    /// When a stage's progress line is due: every one under `--verbose`; otherwise one per `interval` of the stage
    /// (`elapsed`: a stage shorter than that prints none), and its `last` line once it has run a second.
    private static func progressGate(every interval: Duration) -> @Sendable (_ elapsed: Duration, _ last: Bool) -> Bool
    {
        let previous = Mutex<ContinuousClock.Instant?>(nil)
        return { elapsed, last in
            if isVerbose { return true }
            let now = ContinuousClock.now
            return previous.withLock { previous in
                let intervalPassed = previous.map { now - $0 >= interval } ?? (elapsed >= interval)
                guard intervalPassed || (last && elapsed >= .seconds(1)) else { return false }
                previous = now
                return true
            }
        }
    }

    /// ``run(_:)`` for async commands; fetch's errors get their exit codes too: 64 a wrong option or key file, 75
    /// Apple kept failing (try later), 77 Apple refused the key.
    static func runAsync(_ options: LogOptions, _ body: () async throws -> Void) async throws {
        configure(options)
        do {
            try await body()
        } catch let error as ReferenceFileError {
            for line in error.lines { Self.error(line) }
            throw ExitCode(ExitStatus.usage)
        } catch let error as FetchError {
            Self.error(error.description)
            if error.isTemporary { throw ExitCode(ExitStatus.tryLater) }
            switch error {
            case .missingOptions, .badKey, .badConnectKey, .readList, .invalidIdentifier:
                throw ExitCode(ExitStatus.usage)
            case .unauthorized, .connectUnauthorized: throw ExitCode(ExitStatus.noPermission)
            default: throw ExitCode.failure
            }
        } catch {
            try run(options) { throw error }
        }
    }

    /// Runs a command body, turning known errors into one sentence and a distinct exit code.
    static func run(_ options: LogOptions, _ body: () throws -> Void) throws {
        configure(options)
        do {
            try body()
        } catch let error as PipelineError {
            for line in error.lines { Self.error(line) }
            throw ExitCode(error.exitCode)
        } catch let error as StoreError {
            Self.error(error.description)
            throw ExitCode(error.exitCode)
        } catch let error as InputDiscoveryError {
            // A wrong --input path is a usage error: say which path, exit 64.
            Self.error(error.description)
            throw ExitCode(ExitStatus.usage)
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            Self.error("\(error)")
            throw ExitCode.failure
        }
    }

    /// A run that read nothing, or quarantined most of what it read, completes but must not look good: the warning
    /// goes to stderr, and the exit code (66 no input files, 65 too much quarantined) is returned for the end.
    static func health(_ summary: IngestSummary, _ c: PipelineConfiguration) -> Int32? {
        if summary.filesFound == 0 {
            let inputs = c.inputs.joined(separator: ", ")
            if summary.filesIgnored.isEmpty {
                warn("no input files were found in \(inputs): check that the archive is mounted and --input names it.")
            } else {
                // Files are there, but none iaplens reads: the folder is mounted, so say what they are not.
                warn(
                    "no input files were found in \(inputs): its \(summary.filesIgnored.count) file(s) are \(Self.ignoredFilesAre) "
                        + "(the first: \(summary.filesIgnored[0])); check that --input names the archive.")
            }
            return ExitStatus.noInput
        }
        if let warning = healthWarning(summary, c) {
            warn(warning)
            return ExitStatus.tooMuchQuarantined
        }
        return nil
    }

    /// What an ignored input file is not.
    static let ignoredFilesAre =
        "neither .json/.jsonl/.ndjson(.gz) documents nor Apple's financial reports or payment summaries"

    /// The run's quarantine share beyond `--max-quarantine-percent`, as a sentence; nil within it.
    static func healthWarning(_ summary: IngestSummary, _ c: PipelineConfiguration) -> String? {
        QuarantineShare(
            documents: summary.documentsRead, byReason: summary.quarantinedByReason.map { ($0.key, $0.value) }
        )
        .warning(beyond: c.maxQuarantinePercent)
    }

    static func printIngest(_ summary: IngestSummary) {
        result(
            "ingest: \(summary.filesRead) file(s) read, \(summary.filesAlreadyRead) already read, "
                + "\(summary.documentsRead) document(s): \(summary.accepted) accepted, \(summary.otherEnvironment) other environment, "
                + "\(summary.testNotifications) TEST, \(summary.quarantined) quarantined")
        for (reason, count) in summary.quarantinedByReason.sorted(by: { $0.key < $1.key }) {
            result("  quarantined \(reason): \(count)")
        }
        if summary.signatureChecks > 0 {
            result("  signatures checked: \(summary.signatureChecks)")
        }
        if summary.appleReportsFound > 0 {
            result(
                "  Apple financial reports: \(summary.appleReportsFound) found, \(summary.appleReportsLoaded) loaded "
                    + "(\(summary.appleReportRows) row(s))")
        }
        if summary.applePaymentSummariesFound > 0 {
            result(
                "  Apple payment summaries: \(summary.applePaymentSummariesFound) found, "
                    + "\(summary.applePaymentSummariesLoaded) loaded")
        }
        for (reason, count) in summary.appleReportQuarantine.sorted(by: { $0.key < $1.key }) {
            result("  Apple's files quarantined \(reason): \(count) (rows, or files refused whole)")
        }
        for refusal in summary.appleReportRefusals { warn(refusal) }
        for copy in summary.appleFileCopies { note(copy) }
        for problem in summary.unreadableFiles { warn("unreadable: \(problem)") }
        for folder in summary.foldersLeftOut {
            result("  left out \(folder): iaplens's own reports folder, under an --input folder")
        }
        if !summary.filesIgnored.isEmpty {
            result("  ignored \(summary.filesIgnored.count) file(s) that are \(Self.ignoredFilesAre)")
        }
        for entry in summary.entriesNotFiles {
            warn(
                "\(entry) is not a regular file (a named pipe, a socket, a device or a dangling link): not read. "
                    + "Archive files are regular files; move it out of the input folder.")
        }
    }
}

extension Console {
    static func printAnalysis(_ summary: AnalysisSummary) {
        let asOf = summary.asOf.map { ISO8601Millis.format($0) } ?? "none (no accepted documents)"
        let months =
            summary.months.isEmpty
            ? "no months"
            : summary.months.count == 1
                ? "1 month (\(summary.months[0]))"
                : "\(summary.months.count) months (\(summary.months.first ?? "") … \(summary.months.last ?? ""))"
        let rows = summary.martRowCounts.map { "\($0.mart) \($0.rows)" }.joined(separator: ", ")
        let current =
            summary.modelsWereCurrent
            ? "; nothing new since the last analysis, whose models stand" : ""
        result("analyze: as of \(asOf), \(months); rows: \(rows)\(current)")
        if summary.recentlyMissedConsumptionRequests > 0 {
            warn(
                "\(summary.recentlyMissedConsumptionRequests) consumption request(s) of the last \(ConsumptionRequestOutcome.recentlyMissedWindowDays) days were missed (no answer within \(BusinessRules.consumptionAnswerWindowHours) hours): check that the hourly `iaplens consumption` job runs. consumption_requests.csv lists each with Apple's decision."
            )
        }
    }

    static func printReports(_ summary: ReportWriteSummary, directory: String) {
        let removed = summary.removed.isEmpty ? "" : ", \(summary.removed.count) stale file(s) or folder(s) removed"
        result("report: \(summary.written.count) file(s) written, \(summary.unchanged.count) unchanged\(removed)")
        for warning in summary.warnings { warn(warning) }
        for folder in summary.foreign {
            warn(
                "\(folder) is a symbolic link (or not a folder): iaplens writes and removes nothing through it, so "
                    + "the reports that belong there were not written. Replace it with a real folder (or remove it) and "
                    + "run report again.")
        }
        result(readingHint(directory))
    }

    /// Where a person starts reading.
    static func readingHint(_ directory: String) -> String {
        "Reports are in \(directory)/: open \(directory)/index.html in a browser (or read \(directory)/index.md)"
    }
}
