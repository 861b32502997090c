import IAPFormats

/// ISO 8601 UTC timestamps and `YYYY-MM` months from Unix milliseconds for the pages: the formats
/// layer's calendar arithmetic, so every module writes time the same way (no `DateFormatter`, no locale).
public enum UTCTimestamp {
    /// `2026-10-03T12:00:00Z`: seconds precision, milliseconds truncated toward the past.
    /// - Parameter milliseconds: Milliseconds since the Unix epoch.
    /// - Returns: The ISO 8601 UTC text.
    public static func iso8601(unixMilliseconds milliseconds: Int64) -> String {
        ISO8601Millis.format(milliseconds)
    }

    /// `2026-10`: the UTC month that contains the instant.
    /// - Parameter milliseconds: Milliseconds since the Unix epoch.
    /// - Returns: The month text.
    public static func month(unixMilliseconds milliseconds: Int64) -> String {
        String(ISO8601Millis.format(milliseconds).prefix(7))
    }
}
