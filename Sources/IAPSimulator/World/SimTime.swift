import IAPFormats

/// Calendar arithmetic and timestamp formatting on epoch milliseconds (UTC), without Foundation's
/// calendars: the formats are fixed, and the output must not depend on the host's locale or zone data.
enum SimTime {
    static let second: Int64 = 1_000
    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = CivilCalendar.millisecondsPerDay

    /// Days since 1970-01-01 of a civil date.
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        CivilCalendar.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
    }

    /// The civil date of a day count since 1970-01-01.
    static func civil(days: Int64) -> (year: Int, month: Int, day: Int) {
        let date = CivilCalendar.civilFromDays(days)
        return (Int(date.year), Int(date.month), Int(date.day))
    }

    /// Parses `YYYY-MM` into a month index (year × 12 + month − 1), or nil.
    static func monthIndex(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), (1970...9999).contains(year), (1...12).contains(month)
        else { return nil }
        return year * 12 + month - 1
    }

    /// `YYYY-MM` of a month index.
    static func monthText(_ index: Int) -> String {
        pad(index / 12, 4) + "-" + pad(index % 12 + 1, 2)
    }

    /// Epoch ms of the first millisecond of a month index.
    static func monthStart(_ index: Int) -> Int64 {
        days(year: index / 12, month: index % 12 + 1, day: 1) * day
    }

    /// Month index of an epoch-ms instant.
    static func monthIndex(ofMillis ms: Int64) -> Int {
        let date = civil(days: floorDiv(ms, day))
        return date.year * 12 + date.month - 1
    }

    /// `2022-01-03 10:00:00 Etc/GMT`, the V1 receipt text form.
    static func gmtText(_ ms: Int64) -> String {
        wallClock(ms) + " Etc/GMT"
    }

    /// `2022-01-03 02:00:00 America/Los_Angeles`, the V1 `_pst` form (US daylight-saving rules since 2007).
    static func pacificText(_ ms: Int64) -> String {
        let offset = isPacificDaylightTime(ms) ? -7 * hour : -8 * hour
        return wallClock(ms + offset) + " America/Los_Angeles"
    }

    /// ISO 8601 with milliseconds, `2022-01-03T10:00:00.000Z`.
    static func iso8601(_ ms: Int64) -> String {
        let ts = floorDiv(ms, day)
        let date = civil(days: ts)
        let rest = ms - ts * day
        return pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2) + "T"
            + pad(Int(rest / hour), 2) + ":" + pad(Int(rest % hour / minute), 2) + ":"
            + pad(Int(rest % minute / second), 2) + "." + pad(Int(rest % second), 3) + "Z"
    }

    private static func wallClock(_ ms: Int64) -> String {
        let ts = floorDiv(ms, day)
        let date = civil(days: ts)
        let rest = ms - ts * day
        return pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2) + " "
            + pad(Int(rest / hour), 2) + ":" + pad(Int(rest % hour / minute), 2) + ":"
            + pad(Int(rest % minute / second), 2)
    }

    /// Daylight time runs from the second Sunday of March 10:00 UTC to the first Sunday of November 09:00 UTC.
    private static func isPacificDaylightTime(_ ms: Int64) -> Bool {
        let year = civil(days: floorDiv(ms, day)).year
        let start = nthSunday(year: year, month: 3, n: 2) * day + 10 * hour
        let end = nthSunday(year: year, month: 11, n: 1) * day + 9 * hour
        return ms >= start && ms < end
    }

    private static func nthSunday(year: Int, month: Int, n: Int) -> Int64 {
        let first = days(year: year, month: month, day: 1)
        // 1970-01-01 was a Thursday (weekday 4 with Sunday = 0).
        let weekday = Int((first % 7 + 7 + 4) % 7)
        let firstSunday = first + Int64((7 - weekday) % 7)
        return firstSunday + Int64(7 * (n - 1))
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
