import IAPFormats

/// Calendar arithmetic in UTC for certificate validity, on the formats layer's calendar routines (no
/// Foundation, no C library time zone state).
enum CivilTime {
    /// Seconds since 1970-01-01T00:00:00Z for a proleptic Gregorian UTC date and time.
    static func epochSeconds(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) -> Int64
    {
        CivilCalendar.daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// Formats seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ`, for messages.
    static func iso8601(_ seconds: Int64) -> String {
        ISO8601Millis.format(seconds * 1_000)
    }
}
