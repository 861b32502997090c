/// The thresholds the flag rules ran with, so pages describe the rules as they were applied.
public struct FlagRuleSettings: Sendable, Equatable {
    /// `repeat_refunds`: at least this many refunds in the window.
    public var repeatRefunds: Int
    /// `consumable_refund_burst`: at least this many consumable refunds…
    public var burstRefunds: Int
    /// …within this many hours of each other.
    public var burstWindowHours: Int
    /// `high_refund_rate`: at least this many lifetime refunds…
    public var highRateRefunds: Int
    /// …that are at least this percentage of lifetime purchases.
    public var highRatePercent: Int
    /// Window length in days, ending at the end of the month.
    public var windowDays: Int

    /// The defaults of REPORTS.md.
    public init(
        repeatRefunds: Int = 3, burstRefunds: Int = 2, burstWindowHours: Int = 720, highRateRefunds: Int = 2,
        highRatePercent: Int = 50, windowDays: Int = 90
    ) {
        self.repeatRefunds = repeatRefunds
        self.burstRefunds = burstRefunds
        self.burstWindowHours = burstWindowHours
        self.highRateRefunds = highRateRefunds
        self.highRatePercent = highRatePercent
        self.windowDays = windowDays
    }
}
