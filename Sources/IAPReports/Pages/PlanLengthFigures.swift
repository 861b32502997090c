import IAPAnalytics

/// The churn and trial figures of one plan length (`P1M`, `P1Y`, …): the month's products of that length (their
/// `period` in `mrr.csv`), summed from `subscriptions.csv`. A yearly plan can churn only once a year, so where a month's
/// products have more than one length the pages give each rate per length (Documentation/Reports.md "mrr.csv").
struct PlanLengthFigures: Equatable {
    let length: String
    var activeStart: Int64 = 0
    var voluntaryChurn: Int64 = 0
    var involuntaryChurn: Int64 = 0
    var trialsEnded: Int64 = 0
    var trialsConverted: Int64 = 0

    /// Voluntary churn per 100 subscriptions active at the start, in tenths of a percent; nil below the minimum base.
    var voluntaryChurnRateTenths: Int64? { ChangeText.rateTenths(voluntaryChurn, of: activeStart) }
    /// Involuntary churn per 100 active at the start, likewise.
    var involuntaryChurnRateTenths: Int64? { ChangeText.rateTenths(involuntaryChurn, of: activeStart) }
    /// Trials converted per 100 trials ended, likewise.
    var trialConversionTenths: Int64? { ChangeText.rateTenths(trialsConverted, of: trialsEnded) }

    /// The month's plan lengths, shortest first (the pages split a rate by length only where there are two or more).
    /// - Parameter periods: each product's period from every month (``ReportSet/productPeriods``); the month's own
    ///   `mrr.csv` adds any it lacks.
    static func of(_ month: MonthReport, periods: [String: String] = [:]) -> [PlanLengthFigures] {
        var lengths = periods
        for row in month.rows("mrr.csv") { lengths[row.text("product_id")] = row.text("period") }
        let products = Set(month.rows("subscriptions.csv").map { $0.text("product_id") })
        lengths = lengths.filter { products.contains($0.key) }
        return Set(lengths.values).sorted { (order($0), $0) < (order($1), $1) }.map { length in
            var figures = PlanLengthFigures(length: length)
            for row in month.rows("subscriptions.csv") where lengths[row.text("product_id")] == length {
                figures.activeStart += row.integer("active_start")
                figures.voluntaryChurn += row.integer("churned_voluntary")
                figures.involuntaryChurn += row.integer("churned_involuntary")
                figures.trialsEnded += row.integer("trials_ended")
                figures.trialsConverted += row.integer("trials_converted")
            }
            return figures
        }
    }

    /// Shortest first: the position of a period among Apple's subscription lengths (an unknown one last).
    static func order(_ period: String) -> Int {
        ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"].firstIndex(of: period) ?? 99
    }
}
