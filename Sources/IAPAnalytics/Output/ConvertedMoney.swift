/// A month's money figures in one reporting currency, and what they rest on.
public struct ConvertedMoney: Sendable, Equatable {
    public let currency: String
    /// The bank's currency when it is not ``currency``: Apple's rates are into it, and the reporting currency's own
    /// rate divides; nil when the rates are into ``currency`` itself.
    public let through: String?
    public var grossMilli: Int64 = 0
    public var refundedMilli: Int64 = 0
    public var estimatedProceedsMilli: Int64 = 0
    public var appleProceedsMilli: Int64 = 0
    /// `EUR 1.08231 (fiscal 2025-10)`: each rate used.
    public var ratesUsed: Set<String> = []
    /// Currencies with no paid rate: left out of the figures, named.
    public var unconverted: Set<String> = []
    /// Monthly recurring revenue at the month's end (`mrr.csv`, every product and currency), each currency at the
    /// rate of the paid fiscal month holding the month's last day (the day of T for the month of T); nil when the
    /// month has no MRR.
    public var mrrMilli: Int64?
    /// The rates the MRR used, written as ``ratesUsed``.
    public var mrrRatesUsed: Set<String> = []
    /// Currencies of the MRR with no paid rate: left out of ``mrrMilli``, named.
    public var mrrUnconverted: Set<String> = []

    public init(currency: String, through: String? = nil) {
        self.currency = currency
        self.through = through
    }

    /// True when no figure of the month could be converted: every currency it has lacks a paid rate, so the sums are
    /// sums of nothing.
    public var convertsNothing: Bool {
        ratesUsed.isEmpty && !unconverted.isEmpty && grossMilli == 0 && refundedMilli == 0
            && estimatedProceedsMilli == 0
            && appleProceedsMilli == 0
    }
}
