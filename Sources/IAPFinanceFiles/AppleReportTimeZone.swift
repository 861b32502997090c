import Foundation

/// The zone Apple's financial reports date their rows and fiscal days in: Pacific Time. Analysis may be told another
/// (`--apple-time-zone`); fetching and the simulator use this one.
public enum AppleReportTimeZone {
    public static let identifier = "America/Los_Angeles"

    /// The zone from the system's zone data; a machine without it gets Pacific standard time all year.
    public static var zone: TimeZone {
        TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: -8 * 3_600) ?? .gmt
    }
}
