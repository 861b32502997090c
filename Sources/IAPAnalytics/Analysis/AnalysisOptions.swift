import IAPFormats

/// What one analysis is about: the environment and app whose documents count, the as-of time, the
/// proceeds rate, the months to write and the thresholds of the flag rules (Documentation/Reports.md).
public struct AnalysisOptions: Sendable, Equatable {
    /// Only documents of this environment count (`Production` or `Sandbox`, as ingest normalises it).
    public var environment: String
    /// The configured bundle ID (reported; ingest already quarantined other apps).
    public var bundleId: String
    /// `--as-of` in Unix milliseconds; nil means T = the greatest accepted document time.
    public var asOf: Int64?
    /// `--small-business`: every proceeds figure uses 85 %.
    public var smallBusiness: Bool
    /// `--month YYYY-MM …`; empty means every month from the first with counted activity to the month of T.
    public var months: [String]
    /// The thresholds of the flag rules (``FlagThreshold``).
    public var thresholds: FlagThresholds
    /// Above this share of quarantined documents every page opens with a warning naming the main reason
    /// (`--max-quarantine-percent`). It changes no model, so it is not part of the model key.
    public var maxQuarantinePercent = QuarantineShare.defaultMaxPercent
    /// The zone whose calendar days Apple's financial reports are dated in (`--apple-time-zone`, an IANA name).
    public var appleTimeZone = AppleTimeZone.defaultIdentifier
    /// `--reporting-currency`: the pages also show the month's money in it (nil: the bank currency of the latest paid
    /// payment summary). Pages only, so not part of the models' key.
    public var reportingCurrency: String?

    /// Creates options; the defaults are those of Documentation/Reports.md.
    public init(
        environment: String = "Production", bundleId: String, asOf: Int64? = nil, smallBusiness: Bool = false,
        months: [String] = [], thresholds: FlagThresholds = FlagThresholds()
    ) {
        self.environment = environment
        self.bundleId = bundleId
        self.asOf = asOf
        self.smallBusiness = smallBusiness
        self.months = months
        self.thresholds = thresholds
    }

    /// The requested months, sorted and without repeats.
    public var requestedMonths: [String] {
        Array(Set(months)).sorted()
    }

    /// Checks the options; throws ``AnalysisError/invalidOptions(_:)`` with a one-line message.
    public func validate() throws(AnalysisError) {
        if environment.isEmpty {
            throw .invalidOptions("--environment must not be empty (use Production or Sandbox).")
        }
        if bundleId.isEmpty {
            throw .invalidOptions("--bundle-id must not be empty.")
        }
        for month in months where !CalendarMonth.isOption(month) {
            throw .invalidOptions("--month \(month) is not a month: write it YYYY-MM, e.g. 2026-10.")
        }
        if let problem = thresholds.problem() { throw .invalidOptions(problem) }
        if AppleTimeZone(identifier: appleTimeZone) == nil {
            throw .invalidOptions(
                "--apple-time-zone \(appleTimeZone) is not a time zone this machine knows: write an IANA name such as \(AppleTimeZone.defaultIdentifier)."
            )
        }
    }

    /// A canonical text of every option that changes the built models: `reportSet` refuses marts built
    /// with other options.
    var modelKey: String {
        [
            environment, asOf.map(String.init) ?? "-", smallBusiness ? "1" : "0",
            requestedMonths.joined(separator: ","),
            thresholds.canonicalText, appleTimeZone,
        ].joined(separator: "|")
    }
}
