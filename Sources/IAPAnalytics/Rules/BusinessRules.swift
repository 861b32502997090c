import IAPFormats

/// The numbers the reports' definitions rest on, each written once (Documentation/Reports.md "Common rules"). The
/// SQL models read them by name through `{{ rule('…') }}` (``SQLTemplate``), the pages and the consumption job read
/// the same constants, and `BusinessRulesTests` fails when a model spells one of them out.
public enum BusinessRules {
    static let millisecondsPerDay = CivilCalendar.millisecondsPerDay

    /// Apple retries a failed renewal for up to 60 days: an episode recovers within this window or becomes billing
    /// churn, and a month stays provisional until this long after its end (Documentation/Reports.md
    /// "`billing_retry.csv`", "Provisional months"). Also the window a trial has to convert in.
    public static let billingRetryWindowDays: Int64 = 60
    public static var billingRetryWindowMs: Int64 { billingRetryWindowDays * millisecondsPerDay }

    /// The estimated proceeds: 70 % of the customer price, 85 % for an auto-renewable bought a year or more after
    /// its subscription's first purchase, 85 % for everything under `--small-business` (Documentation/Reports.md
    /// "Proceeds").
    public static let standardProceedsPercent: Int64 = 70
    public static let reducedProceedsPercent: Int64 = 85
    public static let reducedProceedsAfterDays: Int64 = 365
    public static var reducedProceedsAfterMs: Int64 { reducedProceedsAfterDays * millisecondsPerDay }

    /// Apple takes consumption information for 12 hours after it signed the request (Documentation/Fetching.md
    /// "Consumption requests: at most once"): a request older than that is missed, and a decision Apple signed
    /// within it came before any answer could.
    public static let consumptionAnswerWindowHours: Int64 = 12
    public static var consumptionAnswerWindowMs: Int64 { consumptionAnswerWindowHours * 3_600_000 }

    /// A rate is computed only from a base of at least this many (Documentation/Reports.md "Small bases"): "100 %"
    /// from one subscriber says nothing. Below it the count is shown alone, no chart point is drawn and no change
    /// is computed.
    public static let minimumRateBase: Int64 = 20

    /// Each rule by the name the SQL models use: `{{ rule('billing_retry_window_ms') }}`.
    public static let byName: [String: Int64] = [
        "milliseconds_per_day": millisecondsPerDay,
        "billing_retry_window_ms": billingRetryWindowMs,
        "standard_proceeds_percent": standardProceedsPercent,
        "reduced_proceeds_percent": reducedProceedsPercent,
        "reduced_proceeds_after_ms": reducedProceedsAfterMs,
        "consumption_answer_window_ms": consumptionAnswerWindowMs,
    ]
}
