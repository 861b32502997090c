import IAPAnalytics
import IAPFormats

/// Documentation/Reports.md "Provisional months": a month is provisional while `T` is less than 60 days after its end,
/// because billing episodes may still recover and churn inferred from silence may still appear. Pages mark such
/// months and compute no change against or from one.
enum ProvisionalMonth {
    /// How long after a month's end its figures can still move: the billing-retry window.
    static let settlingMilliseconds = BusinessRules.billingRetryWindowMs

    /// True when `month` (`YYYY-MM`) is provisional as of `asOf` (Unix ms).
    static func isProvisional(_ month: String, asOf: Int64) -> Bool {
        guard let parsed = CalendarMonth(month) else { return false }
        return asOf < parsed.endMs + settlingMilliseconds
    }

    /// A change is shown in percent only from a base of at least this much (`+4096.2 %` from a base of 1 says nothing).
    static let percentBase: Int64 = 10
}
