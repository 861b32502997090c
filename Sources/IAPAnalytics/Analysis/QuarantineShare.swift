import IAPStore

/// How much of what was read ended in quarantine, and what mostly put it there: a run that quarantined most of its
/// documents (forgotten `--root-certificate` on test data, another app's archive) must not look like a good run.
public struct QuarantineShare: Sendable, Equatable {
    /// The default of `--max-quarantine-percent`: real archives quarantine far less (a few malformed lines).
    public static let defaultMaxPercent = 20

    public let documents: Int
    public let quarantined: Int
    /// The reason with the most documents (ties: the first in code order), and its count.
    public let mainReason: (code: String, count: Int)?

    public init(documents: Int, byReason: [(code: String, count: Int)]) {
        self.documents = documents
        quarantined = byReason.reduce(0) { $0 + $1.count }
        mainReason = byReason.sorted { ($1.count, $0.code) < ($0.count, $1.code) }.first
    }

    public static func == (a: QuarantineShare, b: QuarantineShare) -> Bool {
        a.documents == b.documents && a.quarantined == b.quarantined && a.mainReason?.code == b.mainReason?.code
    }

    /// Whole percent, rounded down.
    public var percent: Int { documents == 0 ? 0 : quarantined * 100 / documents }

    /// True when more than `maxPercent` of the documents were quarantined.
    public func exceeds(_ maxPercent: Int) -> Bool { documents > 0 && quarantined * 100 > maxPercent * documents }

    /// ``warning`` when more than `maxPercent` of the documents were quarantined, else nil: what a run, and every
    /// page, says of a store whose figures rest on the rest.
    public func warning(beyond maxPercent: Int) -> String? { exceeds(maxPercent) ? warning : nil }

    /// The sentence: how many, the main reason with its meaning, and what to do.
    public var warning: String {
        // Rounded down, a share above 0 and under 1 % (a threshold of 0) would read "0 %".
        let share = percent == 0 && quarantined > 0 ? "under 1 %" : "\(percent) %"
        var text = "\(share) of the documents read (\(quarantined) of \(documents)) were quarantined"
        if let main = mainReason {
            text += ", most for \(main.code) (\(main.count))"
            if let reason = QuarantineReason(rawValue: main.code) {
                text += ": \(reason.meaning). \(reason.remedy)"
            } else {
                text += "."
            }
        } else {
            text += "."
        }
        return text + " The figures count only the rest."
    }
}
