import IAPFormats

/// A calendar day with no time zone attached, as Apple's financial reports write them (`MM/DD/YYYY`, a day in
/// Apple's reporting zone) and as the store keeps them (`YYYY-MM-DD`, which sorts as text in date order).
public struct ReportDay: Sendable, Hashable, Comparable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A day from its parts; nil for a date that does not exist (February 30) or lies outside 2008–2099, the years
    /// the App Store can have sold anything in.
    public init?(year: Int, month: Int, day: Int) {
        guard (2008...2099).contains(year), (1...12).contains(month), day >= 1,
            day <= Self.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses Apple's `MM/DD/YYYY` strictly (one- or two-digit month and day, four-digit year).
    public init?(appleText text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count <= 2, parts[1].count <= 2, parts[2].count == 4,
            let month = Self.digits(parts[0]), let day = Self.digits(parts[1]), let year = Self.digits(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD` strictly.
    public init?(isoText text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Self.digits(parts[0]), let month = Self.digits(parts[1]), let day = Self.digits(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `daysSinceEpoch` days after 1970-01-01 (nil outside 2008–2099).
    public init?(daysSinceEpoch: Int) {
        let (year, month, day) = CivilCalendar.civilFromDays(Int64(daysSinceEpoch))
        self.init(year: Int(year), month: Int(month), day: Int(day))
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        Int(CivilCalendar.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day)))
    }

    /// The next day (nil past 2099-12-31).
    public var next: ReportDay? { ReportDay(daysSinceEpoch: daysSinceEpoch + 1) }

    /// 0 for Sunday … 6 for Saturday.
    public var weekday: Int { ((daysSinceEpoch % 7) + 11) % 7 }

    /// `YYYY-MM-DD`.
    public var isoText: String { "\(year)-\(Self.two(month))-\(Self.two(day))" }

    /// `MM/DD/YYYY`, as Apple writes it.
    public var appleText: String { "\(Self.two(month))/\(Self.two(day))/\(year)" }

    /// `YYYY-MM`: the calendar month of the day.
    public var monthText: String { "\(year)-\(Self.two(month))" }

    public static func < (lhs: ReportDay, rhs: ReportDay) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    static func daysIn(month: Int, year: Int) -> Int {
        Int(CivilCalendar.daysInMonth(year: Int64(year), month: Int64(month)))
    }

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
