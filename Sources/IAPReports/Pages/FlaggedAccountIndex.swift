import IAPAnalytics

/// The flagged accounts of a report set, looked up by account: its timeline and consumption requests in a month,
/// and the months it was flagged in. Built once per set, because a case page per flagged account that searched
/// every month's tables again made `report` quadratic in flagged accounts.
struct FlaggedAccountIndex: Sendable {
    private var monthsFlagged: [String: [String]] = [:]
    private var timelines: [String: [String: FlaggedAccountTimeline]] = [:]
    private var requests: [String: [String: [ReportRow]]] = [:]

    init(_ set: ReportSet) {
        for month in set.months {
            for row in month.rows("flagged_accounts.csv") {
                monthsFlagged[row.text("account_id"), default: []].append(month.month)
            }
            var byAccount: [String: FlaggedAccountTimeline] = [:]
            for timeline in month.flaggedTimelines where byAccount[timeline.accountId] == nil {
                byAccount[timeline.accountId] = timeline
            }
            timelines[month.month] = byAccount
            var rows: [String: [ReportRow]] = [:]
            for row in month.rows("consumption_requests.csv") { rows[row.text("account_id"), default: []].append(row) }
            requests[month.month] = rows
        }
    }

    /// The months of the set the account was flagged in, in the set's order.
    func months(flagging account: String) -> [String] { monthsFlagged[account] ?? [] }

    /// The account's evidence timeline in a month, if it was flagged then.
    func timeline(of account: String, in month: String) -> FlaggedAccountTimeline? { timelines[month]?[account] }

    /// The month's `consumption_requests.csv` rows of the account.
    func consumptionRequests(of account: String, in month: String) -> [ReportRow] { requests[month]?[account] ?? [] }
}
