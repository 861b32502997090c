/// ISO 8601 timestamps ⇄ milliseconds since the Unix epoch, by pure arithmetic (no `DateFormatter`, no locale, no time zone database).
public enum ISO8601Millis {
    /// Parses `2026-10-03T12:00:00Z`, with optional fractional seconds (any number of digits; beyond milliseconds
    /// they are truncated), and `Z` or an offset `+02:00` / `-0530` / `+02`. A bare date `2026-10-03` means midnight UTC.
    /// `T`/`Z` may be lower case; a space may stand for the `T` (RFC 3339 allows it, and databases and Python's
    /// `str(datetime)` write it: `2026-10-03 12:00:00+00`); the seconds may be left out (`12:00Z`). A time without
    /// `Z` or an offset is refused: it names no instant. Years 0000–9999.
    /// - Returns: Milliseconds since 1970-01-01T00:00:00Z, or `nil` when the text is not such a timestamp or names an
    ///   impossible date or time (month 13, February 30, hour 24, second 60…).
    public static func parse(_ text: String) -> Int64? {
        var scanner = ByteCursor(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.take(Byte.minus),
            let month = scanner.digits(2), scanner.take(Byte.minus),
            let day = scanner.digits(2),
            (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month)
        else { return nil }
        let days = CivilCalendar.daysFromCivil(year: year, month: month, day: day)
        if scanner.isAtEnd { return days * CivilCalendar.millisecondsPerDay }
        guard scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")) || scanner.take(UInt8(ascii: " ")),
            let hour = scanner.digits(2), scanner.take(Byte.colon),
            let minute = scanner.digits(2),
            hour < 24, minute < 60
        else { return nil }
        var second: Int64 = 0
        var millis: Int64 = 0
        // A fraction belongs to the seconds: after `12:00`, a `.` is refused below, where a zone is expected.
        if scanner.take(Byte.colon) {
            guard let seconds = scanner.digits(2), seconds < 60 else { return nil }
            second = seconds
            if scanner.take(Byte.dot) {
                var count = 0
                while let digit = scanner.digit() {
                    if count < 3 { millis = millis * 10 + digit }
                    count += 1
                }
                guard count > 0 else { return nil }
                for _ in count..<max(count, 3) { millis *= 10 }
            }
        }
        var offsetSeconds: Int64 = 0
        if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
            offsetSeconds = 0
        } else {
            let sign: Int64
            if scanner.take(Byte.plus) { sign = 1 } else if scanner.take(Byte.minus) { sign = -1 } else { return nil }
            guard let offsetHours = scanner.digits(2), offsetHours < 24 else { return nil }
            var offsetMinutes: Int64 = 0
            if !scanner.isAtEnd {
                _ = scanner.take(Byte.colon)
                guard let minutes = scanner.digits(2), minutes < 60 else { return nil }
                offsetMinutes = minutes
            }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard scanner.isAtEnd else { return nil }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return seconds * 1000 + millis
    }

    /// True for a date and time that would parse with a zone but has none (`2026-10-03T12:00:00`): it names no
    /// instant, and the message refusing it says what to add.
    public static func lacksOnlyAZone(_ text: String) -> Bool {
        parse(text) == nil && parse(text + "Z") != nil
    }

    /// The clause every option and config key that takes a time (`--as-of`, `--since`, `--until`) refuses `text` with:
    /// "must be an ISO 8601 time with Z or an offset, e.g. … (got …)", saying when only the zone is missing.
    public static func refusal(of text: String, example: String = "2026-10-31T23:59:59Z") -> String {
        "must be an ISO 8601 time with Z or an offset, e.g. \(example) (got \(text)"
            + (lacksOnlyAZone(text) ? ", which has no time zone" : "") + ")"
    }

    /// Formats as `2026-10-03T12:00:00Z`: UTC, whole seconds, milliseconds truncated toward negative infinity
    /// (so `-1` ms is `1969-12-31T23:59:59Z`). Years outside 0000–9999 are written with as many digits as needed
    /// and a leading `-` when negative.
    public static func format(_ milliseconds: Int64) -> String {
        let seconds = CivilCalendar.floorDivide(milliseconds, 1000)
        let days = CivilCalendar.floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.civilFromDays(days)
        var text = year < 0 ? "-" + padded(-year, 4) : padded(year, 4)
        text += "-" + padded(month, 2) + "-" + padded(day, 2)
        text +=
            "T" + padded(secondOfDay / 3600, 2) + ":" + padded(secondOfDay % 3600 / 60, 2) + ":"
            + padded(secondOfDay % 60, 2) + "Z"
        return text
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A tiny forward-only reader over ASCII bytes.
struct ByteCursor {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    mutating func digit() -> Int64? {
        guard position < bytes.count, bytes[position] &- Byte.zero < 10 else { return nil }
        defer { position += 1 }
        return Int64(bytes[position] - Byte.zero)
    }

    /// Exactly `count` decimal digits as a number.
    mutating func digits(_ count: Int) -> Int64? {
        var value: Int64 = 0
        for _ in 0..<count {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
