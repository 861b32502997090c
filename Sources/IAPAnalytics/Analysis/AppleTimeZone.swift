import Foundation
import IAPFinanceFiles
import IAPFormats

/// The zone Apple's financial reports date their rows in, as a table of UTC offsets the models join: SQLite has no
/// time-zone database and PostgreSQL's may differ from this machine's, so both engines read the same offsets, written
/// by each analysis from the system's zone data (Documentation/Reports.md "apple_reconciliation.csv").
public struct AppleTimeZone: Sendable {
    /// Apple's financial reports use Pacific Time.
    public static let defaultIdentifier = AppleReportTimeZone.identifier

    /// The years the table spans: every time iaplens accepts lies in 2008–2099 (`AppStoreBounds.date`).
    static let firstInstant: Int64 = 1_199_145_600_000 - CivilCalendar.millisecondsPerDay
    static let lastInstant: Int64 = 4_102_444_800_000 + CivilCalendar.millisecondsPerDay

    let zone: TimeZone

    /// Nil when the system knows no zone of that name.
    public init?(identifier: String) {
        guard !identifier.isEmpty, let zone = TimeZone(identifier: identifier) else { return nil }
        self.zone = zone
    }

    /// The UTC instant (ms) at which `day` begins in this zone.
    public func startOfDay(_ day: ReportDay) -> Int64 {
        let midnightUTC = Int64(day.daysSinceEpoch) * CivilCalendar.millisecondsPerDay
        var offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(midnightUTC) / 1000))) * 1000
        // The offset in force at local midnight, which may differ from the one at UTC midnight on a transition day.
        offset =
            Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(midnightUTC - offset) / 1000))) * 1000
        return midnightUTC - offset
    }

    /// `(from_ms, offset_ms)`: from each instant on, local time is UTC plus the offset, until the next row.
    public var offsets: [(fromMs: Int64, offsetMs: Int64)] {
        var rows: [(Int64, Int64)] = []
        var instant = Date(timeIntervalSince1970: Double(Self.firstInstant) / 1000)
        let end = Date(timeIntervalSince1970: Double(Self.lastInstant) / 1000)
        rows.append((Int64.min / 2, Int64(zone.secondsFromGMT(for: instant)) * 1000))
        while let next = zone.nextDaylightSavingTimeTransition(after: instant), next < end {
            let offset = Int64(zone.secondsFromGMT(for: next)) * 1000
            let from = Int64((next.timeIntervalSince1970 * 1000).rounded())
            if rows.last?.1 != offset { rows.append((from, offset)) }
            instant = next
        }
        return rows
    }
}
