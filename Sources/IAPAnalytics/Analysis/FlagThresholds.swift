/// The thresholds of the flag rules (Documentation/Reports.md `flagged_accounts.csv`): the one table of their names (the
/// command-line flag is `--<rawValue>`, the configuration key is `rawValue`), defaults, allowed ranges, units and
/// help. The options, the configuration file, validation, the models' parameters and the report pages all read it,
/// so a new threshold is one new case here.
public enum FlagThreshold: String, CaseIterable, Sendable {
    case repeatRefunds = "repeat-refunds"
    case burstRefunds = "burst-refunds"
    case burstDays = "burst-days"
    case highRateRefunds = "high-rate-refunds"
    case highRatePercent = "high-rate-percent"
    case windowDays = "window-days"

    /// Documentation/Reports.md's default.
    public var defaultValue: Int {
        switch self {
        case .repeatRefunds: return 3
        case .burstRefunds: return 2
        case .burstDays: return 30
        case .highRateRefunds: return 2
        case .highRatePercent: return 50
        case .windowDays: return 90
        }
    }

    /// The values a user may give (a burst needs two refunds; a percentage stops at 100).
    public var range: ClosedRange<Int> {
        switch self {
        case .repeatRefunds, .highRateRefunds: return 1...1_000
        case .burstRefunds: return 2...1_000
        case .burstDays: return 1...365
        case .highRatePercent: return 1...100
        case .windowDays: return 1...3_650
        }
    }

    /// What the value counts.
    public var unit: String {
        switch self {
        case .repeatRefunds, .burstRefunds, .highRateRefunds: return "refunds"
        case .burstDays, .windowDays: return "days"
        case .highRatePercent: return "percent"
        }
    }

    /// The command-line flag.
    public var option: String { "--" + rawValue }

    /// One line of `--help`, with the default and the range.
    public var help: String {
        let what: String
        switch self {
        case .repeatRefunds: what = "repeat_refunds: refunds in the flag window"
        case .burstRefunds: what = "consumable_refund_burst: consumable refunds close together"
        case .burstDays: what = "consumable_refund_burst: at most this many days apart"
        case .highRateRefunds: what = "high_refund_rate: minimum lifetime refunds"
        case .highRatePercent: what = "high_refund_rate: refunds as a percentage of purchases"
        case .windowDays: what = "flag window length in days, ending at the month's end"
        }
        return "\(what) (default \(defaultValue), \(range.lowerBound)…\(range.upperBound) \(unit))."
    }
}

/// A value for every ``FlagThreshold``.
public struct FlagThresholds: Sendable, Equatable {
    private var values: [FlagThreshold: Int] = [:]

    /// Documentation/Reports.md's defaults.
    public init() {}

    /// The value of `threshold` (its default unless set).
    public subscript(_ threshold: FlagThreshold) -> Int {
        get { values[threshold] ?? threshold.defaultValue }
        set { values[threshold] = newValue }
    }

    /// `repeat_refunds`: at least this many refunds in the window.
    public var repeatRefunds: Int { self[.repeatRefunds] }
    /// `consumable_refund_burst`: at least this many consumable refunds…
    public var burstRefunds: Int { self[.burstRefunds] }
    /// …within this many hours of the first (the `burst-days` threshold in hours).
    public var burstWindowHours: Int { self[.burstDays] * 24 }
    /// `high_refund_rate`: at least this many lifetime refunds…
    public var highRateRefunds: Int { self[.highRateRefunds] }
    /// …that are at least this percentage of lifetime purchases.
    public var highRatePercent: Int { self[.highRatePercent] }
    /// Window length in days, ending at the end of the month.
    public var windowDays: Int { self[.windowDays] }

    /// The first value outside its range, as a sentence naming the flag.
    public func problem() -> String? {
        for threshold in FlagThreshold.allCases where !threshold.range.contains(self[threshold]) {
            return
                "\(threshold.option) must be between \(threshold.range.lowerBound) and \(threshold.range.upperBound) "
                + "(got \(self[threshold]))."
        }
        return nil
    }

    /// The values in table order, for the models' key.
    var canonicalText: String {
        FlagThreshold.allCases.map { String(self[$0]) }.joined(separator: "|")
    }
}
