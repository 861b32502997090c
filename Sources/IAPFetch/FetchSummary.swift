/// What a fetch did.
public struct FetchSummary: Sendable, Equatable {
    public var notificationPages = 0
    public var notificationWindow: ClosedRange<Int64>?
    public var customers = 0
    /// Customers Apple answered it does not know (404, error 4040010): another environment's or app's.
    public var customersUnknown = 0
    public var refundPages = 0
    public var ordersLookedUp = 0
    public var ordersAlreadyLookedUp = 0
    public var requests = 0
    public var retries = 0
    public var warnings: [String] = []
    /// Financial reports saved now, saved before, fiscal months recorded as without a report, and months Apple has
    /// not published yet (asked again next time).
    public var financeReportsSaved = 0
    public var financeReportsAlreadySaved = 0
    public var financeMonthsWithoutReport = 0
    public var financeMonthsPending: [String] = []

    /// One line for logs.
    public var line: String {
        "fetch: \(requests) request(s) (\(retries) retried); notification history \(notificationPages) page(s); "
            + "refund history of \(customers) customer(s), \(refundPages) page(s)"
            + (customersUnknown > 0 ? ", \(customersUnknown) unknown to Apple (recorded, not asked again)" : "") + "; "
            + "\(ordersLookedUp) order(s) looked up, \(ordersAlreadyLookedUp) already"
            + "; financial reports \(financeReportsSaved) saved, \(financeReportsAlreadySaved) already, "
            + "\(financeMonthsWithoutReport) month(s) without a report, \(financeMonthsPending.count) not yet published"
            + (financeMonthsPending.isEmpty ? "" : " (\(financeMonthsPending.joined(separator: ", ")))")
    }
}
