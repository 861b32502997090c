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
        // Howard Hinnant's civil-from-days: exact for every day of the proleptic Gregorian calendar.
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
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
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
