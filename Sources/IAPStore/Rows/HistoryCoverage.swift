import IAPFormats

/// Which spans of Get Notification History have been fetched completely, as `fetch` records them in the cursor
/// `notification_history.fetched` and `status` shows them (Documentation/Fetching.md "When Apple's API
/// misbehaves"): every finished window, merged with those it overlaps or touches, so hourly fetches that continue
/// each other stay one span however long they run.
public struct HistoryCoverage: Sendable, Equatable {
    public static let cursorName = "notification_history.fetched"
    /// Apple keeps notification history for 180 days.
    public static let appleRetentionMs: Int64 = 180 * CivilCalendar.millisecondsPerDay

    /// Disjoint, sorted, half-open spans in Unix milliseconds.
    public private(set) var spans: [Range<Int64>] = []

    public init(spans: [Range<Int64>] = []) {
        for span in spans { add(span) }
    }

    /// `start-end;start-end` as stored; nil for text this type did not write.
    public init?(text: String) {
        var parsed: [Range<Int64>] = []
        for piece in text.split(separator: ";") {
            let bounds = piece.split(separator: "-")
            guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start < end else {
                return nil
            }
            parsed.append(start..<end)
        }
        self.init(spans: parsed)
    }

    public var text: String { spans.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ";") }

    public mutating func add(_ span: Range<Int64>) {
        guard !span.isEmpty else { return }
        var merged = span
        var kept: [Range<Int64>] = []
        for existing in spans {
            if existing.upperBound < merged.lowerBound || merged.upperBound < existing.lowerBound {
                kept.append(existing)
            } else {
                merged = min(existing.lowerBound, merged.lowerBound)..<max(existing.upperBound, merged.upperBound)
            }
        }
        kept.append(merged)
        spans = kept.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// What lies between `horizon` (the oldest instant Apple still serves) and the end of the last span and was
    /// never fetched: the history a fetch with `--since/--until` could still fill in.
    public func gaps(after horizon: Int64) -> [Range<Int64>] {
        var gaps: [Range<Int64>] = []
        var cursor = horizon
        for span in spans {
            if span.lowerBound > cursor { gaps.append(cursor..<span.lowerBound) }
            cursor = max(cursor, span.upperBound)
        }
        return gaps
    }
}
