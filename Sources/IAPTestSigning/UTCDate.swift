import IAPFormats

/// A UTC calendar date and time computed from seconds since 1970, with no time zone or wall-clock access.
struct UTCDate: Equatable {
    let year: Int64
    let month: Int64
    let day: Int64
    let hour: Int64
    let minute: Int64
    let second: Int64

    /// Splits seconds since 1970 into proleptic Gregorian fields.
    init(epochSeconds seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        (year, month, day) = CivilCalendar.civilFromDays(days)
        hour = secondOfDay / 3_600
        minute = secondOfDay % 3_600 / 60
        second = secondOfDay % 60
    }
}
