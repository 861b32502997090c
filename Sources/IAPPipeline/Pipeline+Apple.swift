import Foundation
import IAPAnalytics
import IAPConsumption
import IAPFetch
import IAPFormats
import IAPStore

/// The stages that talk to Apple: `fetch` before ingest, answering consumption requests after analyze, and the whole
/// scheduled `run` with both, under one lock, each stage once (Documentation/Pipeline.md "Stages").
extension Pipeline {
    /// `fetch`: what the archive lacks from Apple's APIs, into the archive (the fetch takes the run lock). `progress`
    /// hears of each page, `retried` of each retry (nil: `progress`; ``Fetcher/run(lockHeld:progress:retried:)``).
    public func fetch(
        progress: @escaping @Sendable (String) -> Void = { _ in }, retried: (@Sendable (String) -> Void)? = nil
    ) async throws -> FetchSummary {
        // Without --bundle-id, a store that exists names its app, as for analyze and report.
        try await Fetcher(options: try resolvingAppFromStore().configuration.fetchOptions()).run(
            progress: progress, retried: retried)
    }

    /// `consumption`: brings the models up to date, then answers every pending consumption request
    /// (Documentation/Pipeline.md "Answering consumption requests"). `dryRun` sends and records nothing; `progress`
    /// hears of each retry while Apple or the network fails.
    public func consume(
        dryRun: Bool, now: Int64 = Int64(Date().timeIntervalSince1970 * 1000),
        progress: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> ConsumptionSummary {
        // What a consumption run needs and was not given, named at once (the bundle ID may come from the store).
        let missing =
            (configuration.fetch.facts == nil ? ["facts"] : [])
            + (dryRun ? [] : configuration.fetch.missingServerKeyOptions)
        guard missing.isEmpty else { throw FetchError.missingOptions(missing) }
        // Without --bundle-id, the store names its app, as for analyze and report.
        let resolved = try resolvingAppFromStore()
        guard resolved.configuration.bundleId == configuration.bundleId else {
            return try await resolved.consume(dryRun: dryRun, now: now, progress: progress)
        }
        guard !configuration.bundleId.isEmpty else { throw FetchError.missingOptions(["bundle-id"]) }
        try configuration.validate(requireInputs: false)
        let lock = try storeLocation().lockForRun(command: "consumption")
        defer { withExtendedLifetime(lock) {} }
        try requireExistingStore(for: "consumption")
        let store = try explainingStorage { try openStore() }
        // Flags are evaluated at each request's time by the models (account_flags): build them from the data now.
        _ = try explainingStorage { try analyze(store: store, references: try ReferenceFileSet.read(configuration)) }
        return try await answerConsumptionRequests(store: store, dryRun: dryRun, now: now, progress: progress)
    }

    /// `run` as a schedule runs it: fetch (when an API key or Connect key is configured; into the archive, which
    /// is then an input), ingest, analyze, answer consumption requests (when facts are configured), report; the
    /// store's run lock held from the first stage to the last. `fetchRetried` hears of each retry towards Apple, the
    /// fetch's and the consumption answers' (nil: `fetchProgress`).
    public func runAll(
        progress: (@Sendable (IngestProgress) -> Void)? = nil,
        fetchProgress: @escaping @Sendable (String) -> Void = { _ in },
        fetchRetried: (@Sendable (String) -> Void)? = nil
    ) async throws -> RunSummary {
        var configuration = configuration
        let fetches = configuration.fetch.isConfigured || configuration.fetch.asksForFinancialReports
        let fetchOptions = fetches ? try configuration.fetchOptions() : nil
        // What is fetched is ingested in the same run, wherever the config put it.
        if let archive = fetchOptions?.archive, !configuration.inputs.contains(archive) {
            configuration.inputs.append(archive)
        }
        let pipeline = Pipeline(configuration: configuration, analysisProgress: analysisProgress)
        let references = try pipeline.checkBeforeRun(fetching: fetchOptions?.archive)
        let lock = try pipeline.storeLocation().lockForRun(command: "run")
        defer { withExtendedLifetime(lock) {} }
        var fetched: FetchSummary?
        var fetchFailure: FetchError?
        if let fetchOptions {
            do {
                fetched = try await Fetcher(options: fetchOptions).run(
                    lockHeld: true, progress: fetchProgress, retried: fetchRetried)
            } catch let error as FetchError where error.isTemporary {
                // Apple or the network is down: the pages fetched so far are on disk and the cursors say so, and the
                // archive at hand still makes today's reports. The run ends 75, so the next one asks again.
                fetchFailure = error
            }
            // The archive fetch fills is an input of this run even when the fetch wrote nothing into it (Apple had
            // nothing new, or failed before its first page): an empty folder, not a missing input.
            try? FileManager.default.createDirectory(atPath: fetchOptions.archive, withIntermediateDirectories: true)
        }
        let store = try pipeline.explainingStorage { try pipeline.openStore() }
        let ingest = try pipeline.explainingStorage { try pipeline.ingest(store: store, progress: progress) }
        let analysis = try pipeline.explainingStorage { try pipeline.analyze(store: store, references: references) }
        var consumption: ConsumptionSummary?
        if configuration.fetch.isConfigured, configuration.fetch.facts != nil {
            consumption = try await pipeline.answerConsumptionRequests(
                store: store, dryRun: false, now: Int64(Date().timeIntervalSince1970 * 1000),
                progress: fetchRetried ?? fetchProgress)
            // The answers change one mart; the reports show them without analysing twice.
            try pipeline.explainingStorage {
                try Analyzer(store: store).rebuild(Analyzer.modelsReadingConsumptionAnswers)
            }
        }
        // Analyze has just loaded the reference files: the report keeps the store's copy.
        let reports = try pipeline.explainingStorage {
            try pipeline.report(store: store, references: ReferenceFileSet())
        }
        var summary = RunSummary(ingest: ingest, analysis: analysis, reports: reports)
        summary.fetch = fetched
        summary.fetchFailure = fetchFailure
        summary.consumption = consumption
        return summary
    }

    /// Answers the pending requests of a store whose models are current; the caller holds the lock.
    func answerConsumptionRequests(
        store: any StoreEngine, dryRun: Bool, now: Int64, progress: @escaping @Sendable (String) -> Void
    ) async throws -> ConsumptionSummary {
        guard let factsPath = configuration.fetch.facts else { throw FetchError.missingOptions(["facts"]) }
        let facts = try ReferenceFiles.readConsumptionFacts(at: factsPath)
        var warnings: [String] = []
        var api: AppStoreServerAPI?
        if !dryRun {
            let options = try configuration.fetchOptions(requireArchive: false)
            let (key, warning) = try AppStoreAPIKey.load(
                path: options.privateKeyPath, keyId: options.keyId, issuerId: options.issuerId,
                bundleId: options.bundleId)
            if let warning { warnings.append(warning) }
            api = AppStoreServerAPI(
                key: key, baseURL: options.apiURL ?? options.environment.baseURL, retry: options.retry,
                retried: progress)
        }
        var summary: ConsumptionSummary
        do {
            summary = try await ConsumptionResponder(
                store: store, facts: facts, api: api, deadline: .seconds(configuration.fetch.consumptionDeadlineSeconds)
            ).run(now: now)
        } catch {
            await api?.shutdown()
            throw error
        }
        await api?.shutdown()
        summary.warnings = warnings + summary.warnings
        return summary
    }
}
