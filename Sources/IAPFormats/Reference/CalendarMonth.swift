/// A `YYYY-MM` month parsed strictly: the one month parser of the package. A month from the data can never name
/// another report folder, and `--month` is checked by the same rule (``isOption(_:)``).
public struct CalendarMonth: Equatable, Sendable {
    public let year: Int
    public let month: Int

    /// Parses exactly four digits, `-`, two digits (01–12).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[4] == UInt8(ascii: "-") else { return nil }
        let digits = bytes[0..<4] + bytes[5..<7]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let value = { (range: Range<Int>) in range.reduce(0) { $0 * 10 + Int(bytes[$1] - UInt8(ascii: "0")) } }
        year = value(0..<4)
        month = value(5..<7)
        guard (1...12).contains(month) else { return nil }
    }

    private init(year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// The calendar month before this one.
    public var previous: CalendarMonth {
        month == 1 ? CalendarMonth(year: year - 1, month: 12) : CalendarMonth(year: year, month: month - 1)
    }

    /// The month's first millisecond (UTC), Unix milliseconds.
    public var startMs: Int64 {
        CivilCalendar.daysFromCivil(year: Int64(year), month: Int64(month), day: 1) * CivilCalendar.millisecondsPerDay
    }

    /// The first millisecond after the month: the next month's start.
    public var endMs: Int64 { next.startMs }

    /// The calendar month after this one.
    public var next: CalendarMonth {
        month == 12 ? CalendarMonth(year: year + 1, month: 1) : CalendarMonth(year: year, month: month + 1)
    }

    /// `YYYY-MM`.
    public var text: String {
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + (month < 10 ? "-0" : "-")
            + String(month)
    }

    /// True for a month a user may ask for (`--month`, the config file): a valid month from 1970 on, since every
    /// time iaplens reads is Unix milliseconds.
    public static func isOption(_ text: String) -> Bool {
        CalendarMonth(text).map { $0.year >= 1970 } ?? false
    }
}
