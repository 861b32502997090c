/// What to simulate: how many customers of each kind, which months, which app, and how noisy.
public struct SimulationOptions: Sendable, Equatable {
    /// Seed of every random choice; the same options always give byte-identical archives.
    public var seed: UInt64 = 42
    /// Auto-renewable subscribers (0...5,000,000).
    public var subscribers: Int = 200
    /// Ordinary consumable buyers (0...5,000,000).
    public var consumableBuyers: Int = 100
    /// Refund rings of 3–6 accounts each (0...10,000).
    public var refundRings: Int = 3
    /// First month of the archive, `YYYY-MM`.
    public var startMonth: String = "2022-01"
    /// Number of months (1...120).
    public var months: Int = 12
    /// First month of the V2 era, `YYYY-MM`, from `startMonth` up to the month after the last
    /// (then the whole archive is V1). Nil: a third of the way in (`months / 3` months of V1).
    public var v2StartMonth: String? = nil
    /// The app's bundle ID.
    public var bundleId = "com.example.iaplens.demo"
    /// The app's Apple ID (`data.appAppleId`).
    public var appAppleId: Int64 = 1_234_567_890
    /// Whether to add the noise of real archives (duplicates, broken lines, forgeries, sandbox, other apps …).
    public var noise: Bool = true
    /// How many chunks are generated and signed in parallel (1...64); the output does not depend on it.
    public var shards: Int = 2

    /// Creates the default options (200 subscribers, 100 buyers, 3 rings, 12 months from 2022-01).
    public init() {}

    /// Checks every option's range.
    /// - Throws: `SimulationOptionError` naming the first option out of range.
    public func validate() throws(SimulationOptionError) {
        try Self.check("--subscribers", subscribers, 0...5_000_000)
        try Self.check("--consumable-buyers", consumableBuyers, 0...5_000_000)
        try Self.check("--refund-rings", refundRings, 0...10_000)
        try Self.check("--months", months, 1...120)
        try Self.check("--shards", shards, 1...64)
        guard let first = SimTime.monthIndex(startMonth), first >= 1970 * 12, first + months <= 9999 * 12 else {
            throw SimulationOptionError(
                option: "--start-month",
                message: "--start-month must be a month written YYYY-MM from 1970-01 (got \(startMonth)).")
        }
        if let v2StartMonth {
            let last = SimTime.monthText(first + months)
            guard let v2 = SimTime.monthIndex(v2StartMonth), v2 >= first, v2 <= first + months else {
                throw SimulationOptionError(
                    option: "--v2-start-month",
                    message:
                        "--v2-start-month must be a month written YYYY-MM between \(startMonth) and \(last) (got \(v2StartMonth))."
                )
            }
        }
        guard !bundleId.isEmpty,
            bundleId.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C && $0 != 0x2C })
        else {
            throw SimulationOptionError(
                option: "--bundle-id",
                message:
                    "--bundle-id must be a non-empty bundle identifier without spaces, quotes or commas (got \(bundleId))."
            )
        }
        guard appAppleId > 0 else {
            throw SimulationOptionError(
                option: "--app-apple-id",
                message: "--app-apple-id must be between 1 and \(Int64.max) (got \(appAppleId)).")
        }
    }

    private static func check(_ name: String, _ value: Int, _ range: ClosedRange<Int>) throws(SimulationOptionError) {
        guard range.contains(value) else {
            throw SimulationOptionError(
                option: name,
                message: "\(name) must be between \(range.lowerBound) and \(range.upperBound) (got \(value)).")
        }
    }
}
