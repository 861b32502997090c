/// ISO 8601 UTC timestamps and `YYYY-MM` months from Unix milliseconds, by calendar arithmetic alone.
///
/// No `DateFormatter`, `Calendar` or locale: the output must be byte-identical on every machine and rerun.
public enum UTCTimestamp {
    /// `2026-10-03T12:00:00Z`: seconds precision, milliseconds truncated toward the past.
    /// - Parameter milliseconds: Milliseconds since the Unix epoch.
    /// - Returns: The ISO 8601 UTC text.
    public static func iso8601(unixMilliseconds milliseconds: Int64) -> String {
        let seconds = floorDivide(milliseconds, 1000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let date = civilDate(fromDaysSinceEpoch: days)
        let hour = secondOfDay / 3600
        let minute = secondOfDay % 3600 / 60
        let second = secondOfDay % 60
        return "\(year(date.year))-\(pad2(date.month))-\(pad2(date.day))T\(pad2(hour)):\(pad2(minute)):\(pad2(second))Z"
    }

    /// `2026-10`: the UTC month that contains the instant.
    /// - Parameter milliseconds: Milliseconds since the Unix epoch.
    /// - Returns: The month text.
    public static func month(unixMilliseconds milliseconds: Int64) -> String {
        let date = civilDate(fromDaysSinceEpoch: floorDivide(floorDivide(milliseconds, 1000), 86_400))
        return "\(year(date.year))-\(pad2(date.month))"
    }

    /// Proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civilDate(fromDaysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    private static func pad2(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static func year(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }
}
