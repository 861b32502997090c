/// One Apple financial report loaded into the store: the days it covers and its rows.
public struct AppleReportCoverage: Sendable, Equatable {
    /// `YYYY-MM-DD`, in Apple's reporting zone.
    public let firstDay: String
    public let lastDay: String
    public let rows: Int

    public init(firstDay: String, lastDay: String, rows: Int) {
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.rows = rows
    }
}
