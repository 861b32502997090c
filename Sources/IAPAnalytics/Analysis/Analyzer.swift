import IAPFormats
import GRDB
public import IAPStore

/// Builds the SQL models of REPORTS.md over a store and reads them into the report model.
///
/// `analyze` and `reportSet` may run in different processes (`iaplens analyze`, then `iaplens report`):
/// everything `reportSet` reads lives in main-schema tables (marts and `analysis_parameters`).
public struct Analyzer: Sendable {
    private let store: Store

    /// Creates an analyzer over a store.
    public init(store: Store) {
        self.store = store
    }

    /// What the built models depend on: the options and the store's data version, so models built before
    /// the last ingest or reference-file load are never reported as current.
    static func modelKey(_ options: AnalysisOptions, _ db: Database) throws -> String {
        options.modelKey + "|data " + String(try StoreSettings.dataVersion(db))
    }

    /// Builds all models in one transaction (all or nothing).
    /// - Returns: T, the months to write and the row count of every mart.
    public func analyze(_ options: AnalysisOptions) throws -> AnalysisSummary {
        try options.validate()
        let models = try SQLModelDirectory.load(from: try SQLModelDirectory.locate())
        let runner = SQLModelRunner(models: models)
        return try store.database.write { db in
            try Self.withModelCaches(db) {
                try runner.run(options, key: try Self.modelKey(options, db), in: db)
            }
            let asOf = try Int64?.fetchOne(db, sql: "select as_of_ms from analysis_parameters")
            let months = try String.fetchAll(
                db, sql: "select month from report_months where is_written order by month")
            var counts: [MartRowCount] = []
            for mart in SQLModelCatalog.marts {
                let rows = try Int.fetchOne(db, sql: "select count(*) from \(mart.name)") ?? 0
                counts.append(MartRowCount(mart: mart.name, rows: rows))
            }
            return AnalysisSummary(asOf: asOf ?? nil, months: months, martRowCounts: counts)
        }
    }

    /// Page cache of the main and temp schemas while the models build, in MB.
    ///
    /// SQLite's default is 2 MB per schema. The intermediate models are TEMP tables of up to a million rows,
    /// and the marts look rows up in them and in the store at random; with 16 KB pages every miss copies a page
    /// from the spill file or the store. At 1M notifications that was 19 GB through `pread` and 2.3 s of system
    /// time. 16 MB each: 9.2–9.4 s → 8.0–8.1 s (temp alone 8.2 s, main alone 9.1 s), peak RSS unchanged at
    /// 124 MB; 32 MB was no faster and raised the peak to 150 MB.
    static let modelCacheMegabytes = 16

    private static func withModelCaches<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        let main = try Int.fetchOne(db, sql: "PRAGMA main.cache_size") ?? -2_000
        let temp = try Int.fetchOne(db, sql: "PRAGMA temp.cache_size") ?? -2_000
        try db.execute(sql: "PRAGMA main.cache_size = -\(modelCacheMegabytes * 1024)")
        try db.execute(sql: "PRAGMA temp.cache_size = -\(modelCacheMegabytes * 1024)")
        defer {
            try? db.execute(sql: "PRAGMA main.cache_size = \(main)")
            try? db.execute(sql: "PRAGMA temp.cache_size = \(temp)")
        }
        return try body()
    }

    /// Reads the built marts into the report model: one ``MonthReport`` per month written, the
    /// store-wide ``DataQualitySummary`` and the notes every reader must see.
    /// - Throws: ``AnalysisError/notAnalyzed`` before `analyze`, ``AnalysisError/analyzedWithOtherOptions``
    ///   when `analyze` ran with different options.
    public func reportSet(_ options: AnalysisOptions) throws -> ReportSet {
        try options.validate()
        return try store.database.read { db in
            guard try db.tableExists("analysis_parameters"), try db.tableExists("data_quality"),
                let key = try String.fetchOne(db, sql: "select model_key from analysis_parameters")
            else {
                throw AnalysisError.notAnalyzed
            }
            guard key == (try Self.modelKey(options, db)) else { throw AnalysisError.analyzedWithOtherOptions }
            let asOf = try Int64?.fetchOne(db, sql: "select as_of_ms from analysis_parameters") ?? nil
            let months = try MonthReportReader.read(in: db)
            let dataQuality = try DataQualityReader.read(in: db)
            return ReportSet(
                asOf: asOf ?? 0, environment: options.environment, bundleId: options.bundleId,
                smallBusiness: options.smallBusiness, months: months, dataQuality: dataQuality,
                notes: Self.notes(options, asOf: asOf, dataQuality: dataQuality),
                flagRules: FlagRuleSettings(
                    repeatRefunds: options.repeatRefundsMin, burstRefunds: options.burstRefundsMin,
                    burstWindowHours: options.burstWindowHours, highRateRefunds: options.highRateMinRefunds,
                    highRatePercent: options.highRateMinPercent, windowDays: options.windowDays))
        }
    }

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
                "\(count) transaction\(count == 1 ? "" : "s") had no price (V1 without a products.csv row): "
                    + "counted in sales/refunds and unpriced, with currency XXX and 0 in money columns.")
        }
        if options.smallBusiness {
            notes.append("Proceeds use the Small Business Program rate (85 %) for every transaction.")
        }
        notes.append("Estimated proceeds are estimates: taxes are not modelled.")
        return notes
    }
}
