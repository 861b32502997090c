import IAPFormats

/// A month of Apple's fiscal calendar, the period of one financial report: the fiscal year ends on the last Saturday
/// of September, and each quarter has months of 5, 4 and 4 weeks (the last month of a 53-week year takes the extra
/// week). Named by the calendar month it mostly covers: fiscal December 2025 runs 2025-11-30 … 2025-12-27.
public struct AppleFiscalMonth: Sendable, Hashable, Comparable {
    /// The calendar year and month it is named by (`2025`, `12`).
    public let year: Int
    public let month: Int
    public let firstDay: ReportDay
    public let lastDay: ReportDay

    private static let weeks = [5, 4, 4, 5, 4, 4, 5, 4, 4, 5, 4, 4]

    /// The fiscal month named `YYYY-MM`; nil outside 2008–2099.
    public init?(named text: String) {
        guard let month = CalendarMonth(text),
            let months = Self.months(ofFiscalYear: month.month >= 10 ? month.year + 1 : month.year)
        else { return nil }
        guard let found = months.first(where: { $0.year == month.year && $0.month == month.month }) else { return nil }
        self = found
    }

    /// The fiscal month a day lies in.
    public init?(containing day: ReportDay) {
        for fiscalYear in [day.year, day.year + 1] {
            if let found = Self.months(ofFiscalYear: fiscalYear)?.first(where: {
                $0.firstDay <= day && day <= $0.lastDay
            }) {
                self = found
                return
            }
        }
        return nil
    }

    private init(year: Int, month: Int, firstDay: ReportDay, lastDay: ReportDay) {
        self.year = year
        self.month = month
        self.firstDay = firstDay
        self.lastDay = lastDay
    }

    /// `YYYY-MM`, as the App Store Connect API's `reportDate` names it.
    public var text: String { "\(year)-\(month < 10 ? "0" : "")\(month)" }

    /// The next fiscal month (nil past 2099).
    public var next: AppleFiscalMonth? { lastDay.next.flatMap { AppleFiscalMonth(containing: $0) } }

    public static func < (lhs: AppleFiscalMonth, rhs: AppleFiscalMonth) -> Bool { lhs.firstDay < rhs.firstDay }

    /// The last Saturday of September of a calendar year.
    static func yearEnd(_ year: Int) -> ReportDay? {
        guard let september30 = ReportDay(year: year, month: 9, day: 30) else { return nil }
        let back = (september30.weekday + 1) % 7  // days back to Saturday (weekday 6)
        return ReportDay(daysSinceEpoch: september30.daysSinceEpoch - back)
    }

    /// The twelve months of fiscal year `fiscalYear` (October of the year before … September).
    static func months(ofFiscalYear fiscalYear: Int) -> [AppleFiscalMonth]? {
        // Days before 2008 are not App Store days (ReportDay): fiscal 2008, which began in September 2007, is not held.
        guard let previousEnd = yearEnd(fiscalYear - 1), let end = yearEnd(fiscalYear)
        else { return nil }
        var months: [AppleFiscalMonth] = []
        var start = previousEnd.daysSinceEpoch + 1
        for (index, weeks) in weeks.enumerated() {
            let last = index == 11 ? end.daysSinceEpoch : start + weeks * 7 - 1
            let calendarMonth = (index + 9) % 12 + 1  // 10, 11, 12, 1, …, 9
            guard let first = ReportDay(daysSinceEpoch: start), let lastDay = ReportDay(daysSinceEpoch: last) else {
                return nil
            }
            months.append(
                AppleFiscalMonth(
                    year: calendarMonth >= 10 ? fiscalYear - 1 : fiscalYear, month: calendarMonth, firstDay: first,
                    lastDay: lastDay))
            start = last + 1
        }
        return months
    }
}
