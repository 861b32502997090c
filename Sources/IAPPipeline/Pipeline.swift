import Foundation
import IAPAnalytics
import IAPConsumption
import IAPFetch
import IAPFormats
import IAPModel
import IAPReports
import IAPStore
import IAPVerification

/// The pipeline as a type: ingest → analyze → report over one store, plus `status`. The command line
/// is a thin shell around this; tests drive it directly.
public struct Pipeline: Sendable {
    /// The configuration of this run.
    public let configuration: PipelineConfiguration
    /// Told of each model `analyze` builds (by `analyze`, `run`, and `report` when it has to analyse first).
    public let analysisProgress: (@Sendable (AnalysisProgress) -> Void)?

    /// Creates a pipeline.
    public init(configuration: PipelineConfiguration, analysisProgress: (@Sendable (AnalysisProgress) -> Void)? = nil) {
        self.configuration = configuration
        self.analysisProgress = analysisProgress
    }

    // MARK: - Stages

    /// `ingest`: reads new inputs into the store.
    public func ingest(progress: (@Sendable (IngestProgress) -> Void)? = nil) throws -> IngestSummary {
        try configuration.validate(requireInputs: true)
        try InputDiscovery.requireFilesOrFolders(configuration.inputs)
        let lock = try storeLocation().lockForRun(command: "ingest")
        defer { withExtendedLifetime(lock) {} }
        return try explainingStorage { try ingest(store: try openStore(), progress: progress) }
    }

    /// `analyze`: loads reference files (when given) and builds every model, unless the models stand (built from
    /// the same data, reference files, options and models) and `rebuild` is false.
    public func analyze(rebuild: Bool = false) throws -> AnalysisSummary {
        try refuseMissingStore(for: "analyze")
        let pipeline = try resolvingAppFromStore()
        guard pipeline.configuration.bundleId == configuration.bundleId else {
            return try pipeline.analyze(rebuild: rebuild)
        }
        try configuration.validate(requireInputs: false)
        // The lock first: while another run fills a new store, this one says so (75), not that there is none.
        let lock = try storeLocation().lockForRun(command: "analyze")
        defer { withExtendedLifetime(lock) {} }
        try requireExistingStore(for: "analyze")
        return try explainingStorage {
            try analyze(store: try openStore(), references: try ReferenceFileSet.read(configuration), rebuild: rebuild)
        }
    }

    /// `report`: writes the CSV and Markdown files from the built models.
    public func report() throws -> ReportWriteSummary {
        try refuseMissingStore(for: "report")
        let pipeline = try resolvingAppFromStore()
        guard pipeline.configuration.bundleId == configuration.bundleId else { return try pipeline.report() }
        try configuration.validate(requireInputs: false)
        try requireReportsFolder()
        // The lock first: while another run fills a new store, this one says so (75), not that there is none.
        let lock = try storeLocation().lockForRun(command: "report")
        defer { withExtendedLifetime(lock) {} }
        try requireExistingStore(for: "report")
        return try explainingStorage {
            try report(store: try openStore(), references: try ReferenceFileSet.read(configuration))
        }
    }

    /// `run`: ingest, analyze and report in order, holding the store throughout.
    public func run(progress: (@Sendable (IngestProgress) -> Void)? = nil) throws -> RunSummary {
        let references = try checkBeforeRun()
        let lock = try storeLocation().lockForRun(command: "run")
        defer { withExtendedLifetime(lock) {} }
        return try explainingStorage {
            let store = try openStore()
            let ingestSummary = try ingest(store: store, progress: progress)
            let analysis = try analyze(store: store, references: references)
            // Analyze has just loaded the reference files: the report keeps the store's copy.
            let written = try report(store: store, references: ReferenceFileSet())
            return RunSummary(ingest: ingestSummary, analysis: analysis, reports: written)
        }
    }

    /// `status`: what the store holds. Reads only, so it works while a run holds the store.
    public func status(quarantineLimit: Int = 0, reason: String? = nil) throws -> StoreStatus {
        let location = try storeLocation()
        guard try location.storeExists() else {
            throw PipelineError.invalidConfiguration(
                "No store at \(location): run `iaplens ingest` or `iaplens run` first, or pass --database.")
        }
        var status = try location.reading { store in
            try StoreStatus.read(from: store, quarantineLimit: quarantineLimit, reason: reason)
        }
        // A run killed or crashed mid-way left its row "running": said as stopped once no process holds the store.
        if status.lastRuns.contains(where: \.isRunning), try !location.isRunLockHeld() {
            status.lastRuns = status.lastRuns.map { $0.isRunning ? $0.stopped : $0 }
        }
        return status
    }

    // MARK: - Stage bodies (the caller holds the lock)

    /// `analyze` and `report` without `--bundle-id` use the app the store was created for: a store holds
    /// one app's data, so asking again would only invite a mismatch.
    func resolvingAppFromStore() throws -> Pipeline {
        let location = try storeLocation()
        guard configuration.bundleId.isEmpty, try location.storeExists(),
            let bundleId = try StoreSettings(store: try location.open()).bundleId()
        else { return self }
        var resolved = configuration
        resolved.bundleId = bundleId
        return Pipeline(configuration: resolved, analysisProgress: analysisProgress)
    }

    /// Before anything else (the bundle ID, the lock): a store that does not exist is said to be missing, and no lock
    /// file is left beside a mistyped path. One that another run is creating right now says so (busy, 75).
    func refuseMissingStore(for command: String) throws {
        try configuration.validate(requireInputs: false, requireBundleId: false)
        let location = try storeLocation()
        guard try !location.storeExists() else { return }
        do {
            let probe = try location.lockForRun(command: command)
            withExtendedLifetime(probe) {}
        } catch let error as StoreError {
            // No lock can be made there (a folder that does not exist, or one not writable): then no run is creating
            // the store either, and the store's absence is what to say.
            switch error {
            case .cannotLock, .invalidLocation: break
            default: throw error
            }
        }
        location.removeUnusedRunLock()
        try requireExistingStore(for: command)
    }

    /// `analyze` and `report` never create a store: a mistyped `--database` would otherwise publish empty reports over
    /// real ones.
    func requireExistingStore(for command: String) throws {
        let location = try storeLocation()
        guard try location.storeExists() else {
            throw PipelineError.invalidConfiguration(
                "No store at \(location): \(command) reads a store that ingest has filled. Check --database, or run `iaplens ingest` (or `run`) first."
            )
        }
    }

    /// What `run` checks before it takes the lock and opens (or creates) the store, so that a mistyped path stops it
    /// at once and leaves nothing behind: the options, every input (but `fetching`, the archive fetch is about to
    /// fill), the reference files (read here, once) and the reports folder.
    /// - Returns: The reference files, for the analysis to load.
    func checkBeforeRun(fetching archive: String? = nil) throws -> ReferenceFileSet {
        try configuration.validate(requireInputs: true)
        try InputDiscovery.requireFilesOrFolders(configuration.inputs.filter { $0 != archive })
        // The archive fetch is about to fill may be missing (it is created), but nothing else may stand in its place:
        // a file, or a link to nothing, would stop the run only after the store was made.
        if let archive, (try? FileManager.default.attributesOfItem(atPath: archive)) != nil {
            try InputDiscovery.requireFilesOrFolders([archive])
        }
        let references = try ReferenceFileSet.read(configuration)
        try requireReportsFolder()
        return references
    }

    /// `--reports` must be a folder, or name one to create: said before any stage runs, not after them all.
    func requireReportsFolder() throws {
        var isFolder: ObjCBool = false
        let path = configuration.reportsDirectory
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
            throw PipelineError.invalidConfiguration(
                "--reports \(path) is a file, not a folder: give the folder the reports go to (created when missing).")
        }
    }

    /// The store `--database` names: a SQLite file, or a PostgreSQL URL.
    func storeLocation() throws -> StoreLocation {
        try StoreLocation(configuration.databasePath)
    }

    /// Runs a stage, turning a full or read-only disk into one sentence that says which and what to do.
    func explainingStorage<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            let target: StorageFailure.Target =
                error is ReportWriterError
                ? .reports(directory: configuration.reportsDirectory)
                : .store(location: (try? storeLocation().description) ?? configuration.databasePath)
            throw StorageFailure.explain(error, target: target) ?? error
        }
    }

    func openStore() throws -> any StoreEngine {
        let store = try storeLocation().open()
        try StoreSettings(store: store).claim(bundleId: configuration.bundleId)
        try store.finishInterruptedWork()
        return store
    }

    func ingest(store: any StoreEngine, progress: (@Sendable (IngestProgress) -> Void)?) throws -> IngestSummary {
        let policy = IngestPolicy(
            bundleId: configuration.bundleId, appAppleId: configuration.appAppleId,
            environment: configuration.environment, verifySignatures: !configuration.noVerify,
            v1SharedSecret: configuration.v1SharedSecret)
        let roots = configuration.noVerify ? [] : try trustedRoots()
        let log = RunLog(store: store)
        let runId = try log.begin(command: "ingest", isVerified: !configuration.noVerify)
        do {
            var options = IngestStage.Options(inputs: configuration.inputs, policy: policy, roots: roots)
            // The reports folder under an input folder holds iaplens's own files, never input: left out, and said.
            if FileManager.default.fileExists(
                atPath: configuration.reportsDirectory + "/" + ReportColumns.monthsFileName)
            {
                options.leavingOut = [configuration.reportsDirectory]
            }
            let stage = IngestStage(store: store, options: options, progress: progress)
            let summary = try stage.run(runId: runId)
            try log.finish(
                runId: runId, outcome: "completed", filesRead: summary.filesRead,
                filesSkipped: summary.filesAlreadyRead,
                documentsRead: summary.documentsRead, documentsQuarantined: summary.quarantined,
                message: configuration.noVerify ? "--no-verify: signatures were not checked" : nil)
            return summary
        } catch {
            try? log.finish(runId: runId, outcome: "failed", message: "\(error)")
            throw error
        }
    }

    /// Loads `references` (a file not in it keeps the store's copy) and builds every model (or none: ``analyze(rebuild:)``).
    func analyze(store: any StoreEngine, references: ReferenceFileSet, rebuild: Bool = false) throws -> AnalysisSummary
    {
        try references.load(into: store)
        let log = RunLog(store: store)
        let runId = try log.begin(command: "analyze", isVerified: !configuration.noVerify)
        do {
            let summary = try Self.usage {
                try Analyzer(store: store, progress: analysisProgress).analyze(
                    analysisOptions, keepingCurrentModels: !rebuild)
            }
            try log.finish(runId: runId, outcome: "completed")
            return summary
        } catch {
            try? log.finish(runId: runId, outcome: "failed", message: "\(error)")
            throw error
        }
    }

    /// Loads `references` (`report` alone may have to analyze first) and writes the reports.
    func report(store: any StoreEngine, references: ReferenceFileSet) throws -> ReportWriteSummary {
        let log = RunLog(store: store)
        let runId = try log.begin(command: "report", isVerified: !configuration.noVerify)
        do {
            let analyzer = Analyzer(store: store, progress: analysisProgress)
            try references.load(into: store)
            let set: ReportSet = try Self.usage {
                do {
                    return try analyzer.reportSet(analysisOptions)
                } catch AnalysisError.notAnalyzed, AnalysisError.analyzedWithOtherOptions {
                    // `report` alone after new data, new reference files or other options (e.g. --month):
                    // build the models first, so a report never shows figures older than the data.
                    _ = try analyzer.analyze(analysisOptions)
                    return try analyzer.reportSet(analysisOptions)
                }
            }
            // Without --month the set is every month the data has: folders of other months are stale.
            let written = try ReportWriter(directory: configuration.reportsDirectory)
                .write(set, pruneMonths: configuration.months.isEmpty)
            try log.finish(runId: runId, outcome: "completed")
            return written
        } catch {
            try? log.finish(runId: runId, outcome: "failed", message: "\(error)")
            throw error
        }
    }

    /// An analysis refused for what was asked of it (a `--month` the archive never saw) is a usage error.
    private static func usage<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as AnalysisError {
            switch error {
            case .monthBeforeArchive, .monthAfterData: throw PipelineError.invalidConfiguration(error.description)
            default: throw error
            }
        }
    }

    // MARK: - Inputs of the stages

    private func trustedRoots() throws -> [TrustedRoot] {
        if configuration.rootCertificates.isEmpty { return [try TrustedRoot.appleRootCAG3] }
        var roots: [TrustedRoot] = []
        for path in configuration.rootCertificates {
            do {
                roots += try TrustedRoot.load(fromFile: path)
            } catch {
                throw PipelineError.invalidConfiguration("--root-certificate \(path) could not be used: \(error)")
            }
        }
        return roots
    }

    /// The analysis options this configuration gives (thresholds, months, environment).
    public var analysisOptions: AnalysisOptions {
        var options = AnalysisOptions(bundleId: configuration.bundleId)
        options.environment = configuration.environment
        options.asOf = configuration.asOf
        options.smallBusiness = configuration.smallBusiness
        options.appleTimeZone = configuration.appleTimeZone
        options.reportingCurrency = configuration.reportingCurrency
        options.months = configuration.months
        options.thresholds = configuration.thresholds
        options.maxQuarantinePercent = configuration.maxQuarantinePercent
        return options
    }
}

/// What `run` did, stage by stage.
public struct RunSummary: Sendable {
    public let ingest: IngestSummary
    public let analysis: AnalysisSummary
    public let reports: ReportWriteSummary
    /// What `run` fetched first (nil when no API key is configured, or when the fetch failed).
    public var fetch: FetchSummary? = nil
    /// Why the fetch stopped when Apple or the network failed (``FetchError/isTemporary``): the run went on with what
    /// the archive held, and ends 75.
    public var fetchFailure: FetchError? = nil
    /// The consumption requests `run` answered between analyze and report (nil without facts).
    public var consumption: ConsumptionSummary? = nil
}
