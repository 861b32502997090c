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
    /// What the figures cannot be read without, said at the top of every page (the index too) and by `report`
    /// itself: documents quarantined beyond `--max-quarantine-percent`, a store mostly of another environment, an
    /// option that did nothing. Each is among ``notes`` too.
    public let warnings: [String]

    /// The first observed month: the month of the earliest accepted notification (nil when there is none).
    public var firstObservedMonth: String? { archiveMonths.first { $0.archiveDays > 0 }?.month }

    /// What the store says of one month (a month without a row: nothing).
    public func archiveMonth(_ month: String) -> ArchiveMonth {
        archiveMonths.first { $0.month == month }
            ?? ArchiveMonth(month: month, firstArchiveDay: nil, lastArchiveDay: nil, archiveDays: 0, appleDaysCovered: 0)
    }

    /// Creates a report set.
    public init(
        asOf: Int64, environment: String, bundleId: String, smallBusiness: Bool, months: [MonthReport],
        dataQuality: DataQualitySummary, notes: [String], flagRules: FlagThresholds = FlagThresholds(),
        appleReports: [AppleReportCoverage] = [], appleTimeZone: String = AppleTimeZone.defaultIdentifier,
        archiveMonths: [ArchiveMonth] = [], appleBeforeArchive: [AppleTotal] = [],
        cohorts: ReportTable = ReportTable(name: ReportColumns.cohortsFileName, columns: ReportColumns.cohorts),
        reviews: [String: [AccountReview]] = [:], converted: [String: ConvertedMoney] = [:],
        currencyWeights: [String: Double] = [:], productPeriods: [String: String] = [:], warnings: [String] = []
    ) {
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
            productPeriods: productPeriods, warnings: warnings)
    }
}

/// One Apple financial report loaded into the store: the days it covers and its rows.
public struct AppleReportCoverage: Sendable, Equatable {
    /// `YYYY-MM-DD`, in Apple's reporting zone.
    public let firstDay: String
    public let lastDay: String
    public let rows: Int

    public init(firstDay: String, lastDay: String, rows: Int) {
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.rows = rows
    }
}

/// One month of the `archive_months` mart: the days of the month the archive and Apple's reports hold
/// (Documentation/Reports.md "months.csv").
public struct ArchiveMonth: Sendable, Equatable {
    /// `YYYY-MM`.
    public let month: String
    /// `YYYY-MM-DD` (UTC): the first and last day of the month holding an accepted notification's document time.
    public let firstArchiveDay: String?
    public let lastArchiveDay: String?
    /// How many days of the month hold one.
    public let archiveDays: Int64
    /// The month's days a loaded Apple financial report covers.
    public let appleDaysCovered: Int64

    public init(month: String, firstArchiveDay: String?, lastArchiveDay: String?, archiveDays: Int64, appleDaysCovered: Int64) {
        self.month = month
        self.firstArchiveDay = firstArchiveDay
        self.lastArchiveDay = lastArchiveDay
        self.archiveDays = archiveDays
        self.appleDaysCovered = appleDaysCovered
    }
}

/// Apple's books in one currency over some days: units sold and returned, and what Apple pays for them.
public struct AppleTotal: Sendable, Equatable {
    public let currency: String
    public let firstDay: String
    public let lastDay: String
    public let unitsSold: Int64
    public let unitsReturned: Int64
    public let proceedsMilli: Int64

    public init(currency: String, firstDay: String, lastDay: String, unitsSold: Int64, unitsReturned: Int64, proceedsMilli: Int64) {
        self.currency = currency
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.unitsSold = unitsSold
        self.unitsReturned = unitsReturned
        self.proceedsMilli = proceedsMilli
    }
}

/// One decision of the reviews file about an account.
public struct AccountReview: Sendable, Equatable {
    /// `cleared`, `confirmed` or `watch`.
    public let decision: String
    /// Unix milliseconds.
    public let reviewedAt: Int64
    public let reviewer: String
    public let note: String

    public init(decision: String, reviewedAt: Int64, reviewer: String, note: String) {
        self.decision = decision
        self.reviewedAt = reviewedAt
        self.reviewer = reviewer
        self.note = note
    }
}

/// A month's money figures in one reporting currency, and what they rest on.
public struct ConvertedMoney: Sendable, Equatable {
    public let currency: String
    public var grossMilli: Int64 = 0
    public var refundedMilli: Int64 = 0
    public var estimatedProceedsMilli: Int64 = 0
    public var appleProceedsMilli: Int64 = 0
    /// `EUR 1.08231 (fiscal 2025-10)`: each rate used.
    public var ratesUsed: Set<String> = []
    /// Currencies with no paid rate: left out of the figures, named.
    public var unconverted: Set<String> = []
    /// Monthly recurring revenue at the month's end (`mrr.csv`, every product and currency), each currency at the
    /// rate of the paid fiscal month holding the month's last day (the day of T for the month of T); nil when the
    /// month has no MRR.
    public var mrrMilli: Int64?
    /// The rates the MRR used, written as ``ratesUsed``.
    public var mrrRatesUsed: Set<String> = []
    /// Currencies of the MRR with no paid rate: left out of ``mrrMilli``, named.
    public var mrrUnconverted: Set<String> = []

    public init(currency: String) {
        self.currency = currency
    }

    /// True when no figure of the month could be converted: every currency it has lacks a paid rate, so the sums are
    /// sums of nothing.
    public var convertsNothing: Bool {
        ratesUsed.isEmpty && !unconverted.isEmpty && grossMilli == 0 && refundedMilli == 0 && estimatedProceedsMilli == 0
            && appleProceedsMilli == 0
    }
}
