/// What `analyze` built: the as-of time, the months to write and the size of every mart.
public struct AnalysisSummary: Sendable, Equatable {
    /// T in Unix milliseconds; nil when the store holds no accepted document and no `--as-of` was given.
    public let asOf: Int64?
    /// The months `report` will write, ascending.
    public let months: [String]
    /// Rows of every mart, in build order.
    public let martRowCounts: [MartRowCount]
    /// Consumption requests of the ``ConsumptionRequestOutcome/recentlyMissedWindowDays`` days before T left unanswered past their 12 hours, in a store where
    /// `iaplens consumption` has answered before: a scheduled job that stopped (0 when it never ran).
    public let recentlyMissedConsumptionRequests: Int
    /// True when nothing was built: the marts were already built from what the store holds, with the same options
    /// and models.
    public var modelsWereCurrent = false

    /// Creates a summary.
    public init(
        asOf: Int64?, months: [String], martRowCounts: [MartRowCount], recentlyMissedConsumptionRequests: Int = 0
    ) {
        self.asOf = asOf
        self.months = months
        self.martRowCounts = martRowCounts
        self.recentlyMissedConsumptionRequests = recentlyMissedConsumptionRequests
    }

    /// Rows of one mart, if built.
    public func rowCount(of mart: String) -> Int? {
        martRowCounts.first { $0.mart == mart }?.rows
    }
}

/// The number of rows of one mart table.
public struct MartRowCount: Sendable, Equatable {
    /// The mart's table name.
    public let mart: String
    /// Its rows (all months).
    public let rows: Int

    /// Creates a count.
    public init(mart: String, rows: Int) {
        self.mart = mart
        self.rows = rows
    }
}
