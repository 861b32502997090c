/// The complete output of one `iaplens report`: every month folder plus the cross-month index.
public struct ReportSet: Sendable, Equatable {
    /// The as-of time `T` (Unix ms): the greatest accepted document time, or `--as-of`.
    public let asOf: Int64
    /// The configured environment (`Production` or `Sandbox`).
    public let environment: String
    /// The configured bundle ID.
    public let bundleId: String
    /// Whether the Small Business Program rate (85 %) was applied.
    public let smallBusiness: Bool
    /// Month reports in ascending month order.
    public let months: [MonthReport]
    /// Store-wide data quality.
    public let dataQuality: DataQualitySummary
    /// The flag rules' thresholds as applied.
    public let flagRules: FlagThresholds
    /// Sentences about how the figures were made that every reader must see (e.g. "--no-verify was used").
    public let notes: [String]
    /// The Apple financial reports loaded into the store, by period.
    public let appleReports: [AppleReportCoverage]
    /// The zone Apple's report days are in (`--apple-time-zone`).
    public let appleTimeZone: String
    /// What each month rests on (`months.csv`): every month the store has a notification or an Apple report day in,
    /// ascending.
    public let archiveMonths: [ArchiveMonth]
    /// What Apple's loaded reports say of the days before the first observed month, per `Partner Share Currency`:
    /// the history the archive never saw, in total.
    public let appleBeforeArchive: [AppleTotal]
    /// `cohorts.csv`: retention by cohort, sorted by cohort month then months since.
    public let cohorts: ReportTable
    /// The reviews file's decisions, by account, oldest first (Documentation/Reports.md "The review queue").
    public let reviews: [String: [AccountReview]]
    /// Each month's money in the reporting currency (`--reporting-currency`, else the bank currency of the latest
    /// paid payment summary); empty when no payment summary is paid.
    public let converted: [String: ConvertedMoney]
    /// What a milliunit of each currency is worth in the bank currency of the latest paid payment summary, at the
    /// latest paid rate of the currency (the bank currency 1): how the index chooses which currencies to chart, so
    /// that 1,000 JPY does not outweigh 9.99 EUR. Empty when no payment summary is paid.
    public let currencyWeights: [String: Double]
    /// Each product's period as `mrr.csv` gives it (`P1M`, `P1Y`, …), from every month the store holds: a month's
    /// churn is split by plan length even for a product with no row in that month's `mrr.csv` (all of it churned).
    public let productPeriods: [String: String]
    /// The SKUs of Apple's loaded financial reports of which the archive holds no sale and no refund on any day those
    /// reports cover: another app's products (Apple's report covers every app of the App Store Connect account), or
    /// products whose notifications never reached the archive.
    public let appleOnlyProducts: Set<String>
    /// What the figures cannot be read without, said at the top of every page (the index too) and by `report`
    /// itself: documents quarantined beyond `--max-quarantine-percent`, a store mostly of another environment, an
    /// option that did nothing. Each is among ``notes`` too.
    public let warnings: [String]

    /// The first observed month: the month of the earliest accepted notification (nil when there is none).
    public var firstObservedMonth: String? { archiveMonths.first { $0.archiveDays > 0 }?.month }

    /// What the store says of one month (a month without a row: nothing).
    public func archiveMonth(_ month: String) -> ArchiveMonth {
        archiveMonths.first { $0.month == month }
            ?? ArchiveMonth(
                month: month, firstArchiveDay: nil, lastArchiveDay: nil, archiveDays: 0, appleDaysCovered: 0)
    }

    /// Creates a report set.
    public init(
        asOf: Int64, environment: String, bundleId: String, smallBusiness: Bool, months: [MonthReport],
        dataQuality: DataQualitySummary, notes: [String], flagRules: FlagThresholds = FlagThresholds(),
        appleReports: [AppleReportCoverage] = [], appleTimeZone: String = AppleTimeZone.defaultIdentifier,
        archiveMonths: [ArchiveMonth] = [], appleBeforeArchive: [AppleTotal] = [],
        cohorts: ReportTable = ReportTable(name: ReportColumns.cohortsFileName, columns: ReportColumns.cohorts),
        reviews: [String: [AccountReview]] = [:], converted: [String: ConvertedMoney] = [:],
        currencyWeights: [String: Double] = [:], productPeriods: [String: String] = [:],
        appleOnlyProducts: Set<String> = [], warnings: [String] = []
    ) {
        self.appleOnlyProducts = appleOnlyProducts
        self.converted = converted
        self.currencyWeights = currencyWeights
        self.productPeriods = productPeriods
        self.warnings = warnings
        self.cohorts = cohorts
        self.reviews = reviews
        self.archiveMonths = archiveMonths
        self.appleBeforeArchive = appleBeforeArchive
        self.appleReports = appleReports
        self.appleTimeZone = appleTimeZone
        self.flagRules = flagRules
        self.asOf = asOf
        self.environment = environment
        self.bundleId = bundleId
        self.smallBusiness = smallBusiness
        self.months = months
        self.dataQuality = dataQuality
        self.notes = notes
    }

    /// The same set with other months (the index of a folder that holds more months than one run wrote).
    public func with(months: [MonthReport]) -> ReportSet {
        ReportSet(
            asOf: asOf, environment: environment, bundleId: bundleId, smallBusiness: smallBusiness, months: months,
            dataQuality: dataQuality, notes: notes, flagRules: flagRules, appleReports: appleReports,
            appleTimeZone: appleTimeZone, archiveMonths: archiveMonths, appleBeforeArchive: appleBeforeArchive,
            cohorts: cohorts, reviews: reviews, converted: converted, currencyWeights: currencyWeights,
            productPeriods: productPeriods, appleOnlyProducts: appleOnlyProducts, warnings: warnings)
    }
}
