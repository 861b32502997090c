import Foundation
import IAPFormats
import Logging

/// swift-log's handler for the command line: one line per message on standard error, with the UTC time to the
/// millisecond and the level, so a cron log appended run after run can be read and filtered:
/// `2026-11-25T08:31:02.123Z warning: 100 % of the documents read were quarantined …`.
struct LogLine: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let text =
            Self.timestamp(Date()) + " " + event.level.rawValue + ": " + TerminalText.logLine("\(event.message)") + "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// `2026-11-25T08:31:02.123Z`.
    static func timestamp(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = ISO8601Millis.format(millis)
        let fraction = String(millis % 1000 + 1000).dropFirst()
        return String(seconds.dropLast()) + "." + fraction + "Z"
    }
}
