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

    /// Creates a report set.
    public init(
        asOf: Int64, environment: String, bundleId: String, smallBusiness: Bool, months: [MonthReport],
        dataQuality: DataQualitySummary, notes: [String], flagRules: FlagThresholds = FlagThresholds(),
        appleReports: [AppleReportCoverage] = [], appleTimeZone: String = AppleTimeZone.defaultIdentifier
    ) {
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
            appleTimeZone: appleTimeZone)
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
