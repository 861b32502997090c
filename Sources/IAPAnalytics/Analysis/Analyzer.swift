import Foundation
import IAPFormats
public import IAPStore

/// Builds the SQL models of Documentation/Reports.md over a store and reads them into the report model.
///
/// `analyze` and `reportSet` may run in different processes (`iaplens analyze`, then `iaplens report`):
/// everything `reportSet` reads lives in main-schema tables (marts and `analysis_parameters`).
public struct Analyzer: Sendable {
    private let store: any StoreEngine
    private let modelWorkers: Int
    private let progress: (@Sendable (AnalysisProgress) -> Void)?

    /// Creates an analyzer over a store. `modelWorkers`: how many connections build the models at once where the
    /// engine offers several (``StoreEngine/makeModelWorkspace(workers:)``); by default
    /// ``workersEnvironmentVariable``, else one per core up to 4. `progress` is told of each table model built by
    /// `analyze`, from the thread that built it.
    public init(
        store: any StoreEngine, modelWorkers: Int? = nil, progress: (@Sendable (AnalysisProgress) -> Void)? = nil
    ) {
        self.store = store
        self.modelWorkers = modelWorkers ?? Self.defaultModelWorkers
        self.progress = progress
    }

    /// What the built models depend on: the options, the store's data version, and the models themselves (their SQL
    /// and the business rules rendered into it), so models built before the last ingest or reference-file load, or
    /// by another iaplens whose models differ, are never reported as current.
    static func modelKey(_ options: AnalysisOptions, _ connection: any StoreConnection) throws -> String {
        options.modelKey + "|data " + String(try StoreSettings.dataVersion(connection))
            + "|models " + modelsIdentity(try SQLModelSource.load())
    }

    /// The first 16 hex digits of the SHA-256 of every model's name and SQL, in catalog order, and of the business
    /// rules by name.
    static func modelsIdentity(_ models: [(model: SQLModel, sql: String)]) -> String {
        var text = ""
        for (model, sql) in models { text += model.name + "\u{0}" + sql + "\u{0}" }
        for (name, value) in BusinessRules.byName.sorted(by: { $0.key < $1.key }) { text += "\(name)=\(value)\u{0}" }
        return String(MemoryDigest.sha256Hex(Array(text.utf8)).prefix(16))
    }

    /// Builds all models in one transaction (all or nothing), unless `keepingCurrentModels` and the marts were built
    /// from what the store holds now with these options and models (``summaryOfCurrentModels``).
    /// - Returns: T, the months to write and the row count of every mart.
    public func analyze(_ options: AnalysisOptions, keepingCurrentModels: Bool = true) throws -> AnalysisSummary {
        try options.validate()
        let models = try SQLModelSource.load()
        var runner = SQLModelRunner(models: models)
        runner.counter = progress.map { ModelBuildCounter(models: models.map(\.model), report: $0) }
        let schema = store.schema
        let summarize = { (connection: any StoreConnection) throws -> AnalysisSummary in
            try Self.refuseMonthsTheArchiveNeverSaw(connection)
            let asOf = try connection.integer("select as_of_ms from analysis_parameters")
            let months = try connection.rows("select month from report_months where is_written order by month")
                .compactMap { $0[0].text }
            var counts: [MartRowCount] = []
            for mart in SQLModelCatalog.marts {
                let rows = try connection.integer("select count(*) from \(mart.name)") ?? 0
                counts.append(MartRowCount(mart: mart.name, rows: Int(rows)))
            }
            let missed =
                try connection.integer(
                    """
                    select count(*) from consumption_request_outcomes
                    where answer = '\(ConsumptionRequestOutcome.missed.rawValue)'
                        and signed_at_ms >= (select as_of_ms from analysis_parameters) - \(ConsumptionRequestOutcome.recentlyMissedWindowMs)
                        and exists (select 1 from consumption_answers)
                    """) ?? 0
            return AnalysisSummary(
                asOf: asOf, months: months, martRowCounts: counts, recentlyMissedConsumptionRequests: Int(missed))
        }
        if keepingCurrentModels, let current = try summaryOfCurrentModels(options, models: models, summarize: summarize)
        {
            return current
        }
        if let workspace = try store.makeModelWorkspace(workers: modelWorkers) {
            defer {
                let start = ContinuousClock.now
                workspace.close()
                SQLModelRunner.printTiming("closing the workers", since: start)
            }
            let key = try workspace.withWorker(0) { connection in try Self.modelKey(options, connection) }
            return try SQLModelScheduler(runner: runner, workspace: workspace)
                .run(options, key: key, schema: schema, then: summarize)
        }
        return try store.buildModels { connection in
            try runner.run(options, key: try Self.modelKey(options, connection), in: connection, schema: schema)
            return try summarize(connection)
        }
    }

    /// When the store's marts were built from what the store holds now, with these options and these models (the
    /// model key ``reportSet(_:)`` checks), nothing is built again: a scheduled run that found nothing new costs no
    /// analysis. Only the models reading what `consumption` records are rebuilt, since answering changes no data
    /// version. Nil when anything must be built.
    private func summaryOfCurrentModels(
        _ options: AnalysisOptions, models: [(model: SQLModel, sql: String)],
        summarize: (any StoreConnection) throws -> AnalysisSummary
    ) throws -> AnalysisSummary? {
        let schema = store.schema
        // Read first, so that models to build cost no write transaction (on PostgreSQL, no statistics refresh); the
        // caller holds the run lock, so nothing changes the store before the write below.
        guard try store.read({ connection in try Self.modelsAreCurrent(options, connection) }) else { return nil }
        return try store.buildModels { connection -> AnalysisSummary? in
            let answersReaders = models.filter { Self.modelsReadingConsumptionAnswers.contains($0.model.name) }
            try SQLModelRunner(models: answersReaders).build(in: connection, schema: schema)
            var summary = try summarize(connection)
            summary.modelsWereCurrent = true
            return summary
        }
    }

    /// True when every mart exists and was built with the model key `options` give now.
    static func modelsAreCurrent(_ options: AnalysisOptions, _ connection: any StoreConnection) throws -> Bool {
        guard try connection.tableExists("analysis_parameters"),
            try SQLModelCatalog.marts.allSatisfy({ try connection.tableExists($0.name) })
        else { return false }
        return try connection.text("select model_key from analysis_parameters") == (try modelKey(options, connection))
    }

    /// Environment variable setting how many connections build the models at once where the engine offers
    /// several (SQLite); `1` builds them on one connection, as PostgreSQL always does.
    public static let workersEnvironmentVariable = "IAPLENS_MODEL_WORKERS"

    /// Every environment variable analysis reads: the workers, the timing and plan printouts, the SQL folder.
    public static let environmentVariables = [
        workersEnvironmentVariable, SQLModelRunner.timingsEnvironmentVariable,
        SQLModelRunner.explainEnvironmentVariable,
        SQLModelSource.environmentVariable,
    ]

    /// ``workersEnvironmentVariable``, else one worker per core up to 4 (the models' graph is rarely wider).
    static var defaultModelWorkers: Int {
        if let text = ProcessInfo.processInfo.environment[workersEnvironmentVariable], let count = Int(text), count >= 1
        {
            return count
        }
        return min(ProcessInfo.processInfo.activeProcessorCount, 4)
    }

    /// The models built from what `consumption` records (`consumption_answers`): after it answers, these alone are
    /// stale, so a run that answers between `analyze` and `report` rebuilds them instead of analysing twice.
    public static let modelsReadingConsumptionAnswers = ["consumption_request_outcomes"]

    /// Rebuilds `names` with the parameters of the last `analyze` (in one transaction), leaving every other model
    /// as it was. Only for models whose inputs are tables: the temporary models of `analyze` are gone.
    public func rebuild(_ names: [String]) throws {
        let models = try SQLModelSource.load().filter { names.contains($0.model.name) }
        let runner = SQLModelRunner(models: models)
        let schema = store.schema
        try store.buildModels { connection in try runner.build(in: connection, schema: schema) }
    }

    /// Reads the built marts into the report model: one ``MonthReport`` per month written, the
    /// store-wide ``DataQualitySummary`` and the notes every reader must see.
    /// - Throws: ``AnalysisError/notAnalyzed`` before `analyze`, ``AnalysisError/analyzedWithOtherOptions``
    ///   when `analyze` ran with different options.
    public func reportSet(_ options: AnalysisOptions) throws -> ReportSet {
        try options.validate()
        return try store.read { connection in
            guard try connection.tableExists("analysis_parameters"), try connection.tableExists("data_quality"),
                let key = try connection.text("select model_key from analysis_parameters")
            else {
                throw AnalysisError.notAnalyzed
            }
            guard key == (try Self.modelKey(options, connection)) else { throw AnalysisError.analyzedWithOtherOptions }
            try Self.refuseMonthsTheArchiveNeverSaw(connection)
            let asOf = try connection.integer("select as_of_ms from analysis_parameters")
            let months = try ReportingCurrencyReader.convertingStakes(
                MonthReportReader.read(in: connection), in: connection, requested: options.reportingCurrency)
            let archiveMonths = try ArchiveMonthReader.read(in: connection)
            let firstObserved = archiveMonths.first { $0.archiveDays > 0 }?.month
            let appleBefore = try firstObserved.map { try ArchiveMonthReader.appleBefore($0, in: connection) } ?? []
            let dataQuality = try DataQualityReader.read(in: connection)
            // Every warning is a note too (the month pages list them together), the quarantine share first.
            let quarantine = Self.quarantineWarning(options, dataQuality: dataQuality)
            let others = try [
                Self.otherEnvironmentWarning(options, dataQuality: dataQuality),
                ReportingCurrencyReader.unreachable(in: connection, requested: options.reportingCurrency),
            ].compactMap { $0 }
            let appleReports = try connection.rows(
                "select period_start, period_end, row_count from apple_reports order by period_start collate \(connection.dialect.binaryCollation)"
            ).map {
                AppleReportCoverage(
                    firstDay: $0[0].text ?? "", lastDay: $0[1].text ?? "", rows: Int($0[2].integer ?? 0))
            }
            return ReportSet(
                asOf: asOf ?? 0, environment: options.environment, bundleId: options.bundleId,
                smallBusiness: options.smallBusiness, months: months, dataQuality: dataQuality,
                notes: [quarantine].compactMap { $0 } + Self.notes(options, asOf: asOf, dataQuality: dataQuality)
                    + others,
                flagRules: options.thresholds, appleReports: appleReports, appleTimeZone: options.appleTimeZone,
                archiveMonths: archiveMonths, appleBeforeArchive: appleBefore,
                cohorts: try ArchiveMonthReader.cohorts(in: connection),
                reviews: try ArchiveMonthReader.reviews(in: connection),
                converted: try ReportingCurrencyReader.read(in: connection, requested: options.reportingCurrency).1,
                currencyWeights: try ReportingCurrencyReader.weights(in: connection),
                productPeriods: try ArchiveMonthReader.productPeriods(in: connection),
                appleOnlyProducts: try ArchiveMonthReader.appleOnlyProducts(in: connection),
                warnings: [quarantine].compactMap { $0 } + others)
        }
    }

    /// Documentation/Reports.md "Months written": a month asked for with `--month` before the archive's first observed
    /// month, or after the month of T, is refused, never written.
    static func refuseMonthsTheArchiveNeverSaw(_ connection: any StoreConnection) throws {
        if let month = try connection.text(
            "select month from report_months where is_written and is_before_archive order by month limit 1")
        {
            let first = try connection.text("select min(month) from archive_months where archive_days > 0")
            throw AnalysisError.monthBeforeArchive(month: month, firstObserved: first)
        }
        if let month = try connection.text(
            "select month from report_months where is_written and is_after_as_of order by month limit 1"),
            let asOf = try connection.integer("select as_of_ms from analysis_parameters")
        {
            throw AnalysisError.monthAfterData(month: month, asOf: ISO8601Millis.format(asOf))
        }
    }

    /// The warnings (``ReportSet/warnings``): said at the top of every page and by `report` itself. This one: the
    /// store's documents quarantined beyond `--max-quarantine-percent` (the figures rest on the rest).
    static func quarantineWarning(_ options: AnalysisOptions, dataQuality: DataQualitySummary) -> String? {
        QuarantineShare(
            documents: dataQuality.documentsRead, byReason: dataQuality.quarantinedByReason.map { ($0.label, $0.count) }
        )
        .warning(beyond: options.maxQuarantinePercent)
    }

    /// When most documents stored are of another environment than the one counted (an archive of Production read
    /// with `--environment Sandbox`, or the reverse), the figures rest on the few left: said, with the environments.
    static func otherEnvironmentWarning(_ options: AnalysisOptions, dataQuality: DataQualitySummary) -> String? {
        let others = dataQuality.otherEnvironments.reduce(0) { $0 + $1.count }
        guard others > dataQuality.accepted,
            let largest = dataQuality.otherEnvironments.max(by: { $0.count < $1.count })
        else { return nil }
        let listed = dataQuality.otherEnvironments.map { "\($0.label) \($0.count)" }.joined(separator: ", ")
        return "\(others) of the \(others + dataQuality.accepted) documents stored are of another environment than "
            + "\(options.environment), the one the figures count (\(listed)): the figures rest on the \(dataQuality.accepted) "
            + "left. If the archive is \(largest.label)'s, run with --environment \(largest.label)."
    }

    /// The notes that are not warnings: what the figures are, said on every page.
    static func notes(_ options: AnalysisOptions, asOf: Int64?, dataQuality: DataQualitySummary) -> [String] {
        var notes: [String] = []
        if dataQuality.unverifiedDocuments > 0 {
            let count = dataQuality.unverifiedDocuments
            notes.append(
                count == 1
                    ? "1 accepted document was ingested with --no-verify: signatures not checked."
                    : "\(count) accepted documents were ingested with --no-verify: signatures not checked.")
        }
        if options.asOf != nil, let asOf {
            notes.append("Figures are as of \(ISO8601Millis.format(asOf)) (--as-of), not the newest document.")
        }
        if dataQuality.unpricedTransactions > 0 {
            let count = dataQuality.unpricedTransactions
            notes.append(
                "\(count) transaction\(count == 1 ? "" : "s") in the store had no price (V1 without a products.csv row): "
                    + "counted in sales/refunds and unpriced, with currency XXX and 0 in money columns.")
        }
        if options.smallBusiness {
            notes.append(
                "Proceeds use the Small Business Program rate (\(BusinessRules.reducedProceedsPercent) %) for every transaction."
            )
        }
        notes.append("Estimated proceeds are estimates: taxes are not modelled.")
        return notes
    }
}
