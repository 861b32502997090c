/// One month of the `archive_months` mart: the days of the month the archive and Apple's reports hold
/// (Documentation/Reports.md "months.csv").
public struct ArchiveMonth: Sendable, Equatable {
    /// `YYYY-MM`.
    public let month: String
    /// `YYYY-MM-DD` (UTC): the first and last day of the month holding an accepted notification's document time.
    public let firstArchiveDay: String?
    public let lastArchiveDay: String?
    /// How many days of the month hold one.
    public let archiveDays: Int64
    /// The month's days a loaded Apple financial report covers.
    public let appleDaysCovered: Int64

    public init(
        month: String, firstArchiveDay: String?, lastArchiveDay: String?, archiveDays: Int64, appleDaysCovered: Int64
    ) {
        self.month = month
        self.firstArchiveDay = firstArchiveDay
        self.lastArchiveDay = lastArchiveDay
        self.archiveDays = archiveDays
        self.appleDaysCovered = appleDaysCovered
    }
}
