import IAPAnalytics
import IAPFormats

/// The flagged accounts as a work queue (Documentation/Reports.md "The review queue"): new and re-activated accounts
/// first, ranked by money at stake; accounts cleared by a reviewer and quiet since kept out of the way, collapsed.
enum ReviewQueue {
    static let statusOrder = ["new": 0, "active": 1, "carried": 2]

    /// The month's flagged rows in queue order: `new` → `active` → `carried`, then money at stake descending, then
    /// account. Amounts of different currencies are never compared (1,000 JPY is not more than 9.99 EUR): within a
    /// status, the currency most rows are in comes first (the reporting currency, when the stakes are converted),
    /// then the others in byte order, each ranked by its amounts; no stake at all comes last.
    static func ordered(_ rows: [ReportRow]) -> [ReportRow] {
        var rowsPerCurrency: [String: Int] = [:]
        for row in rows where !row.text("at_stake_currency").isEmpty {
            rowsPerCurrency[row.text("at_stake_currency"), default: 0] += 1
        }
        let main = rowsPerCurrency.min { ($1.value, $0.key) < ($0.value, $1.key) }?.key
        func currencyRank(_ row: ReportRow) -> (Int, String) {
            let currency = row.text("at_stake_currency")
            return currency.isEmpty ? (2, "") : (currency == main ? 0 : 1, currency)
        }
        return rows.sorted { a, b in
            let (sa, sb) = (statusOrder[a.text("queue_status")] ?? 3, statusOrder[b.text("queue_status")] ?? 3)
            if sa != sb { return sa < sb }
            let (ca, cb) = (currencyRank(a), currencyRank(b))
            if ca.0 != cb.0 { return ca.0 < cb.0 }
            if ca.1 != cb.1 { return ca.1.utf8.lexicographicallyPrecedes(cb.1.utf8) }
            if a.integer("at_stake_milli") != b.integer("at_stake_milli") {
                return a.integer("at_stake_milli") > b.integer("at_stake_milli")
            }
            return a.text("account_id").utf8.lexicographicallyPrecedes(b.text("account_id").utf8)
        }
    }

    /// Cleared by a reviewer, and nothing new since: collapsed.
    static func isCollapsed(_ row: ReportRow) -> Bool {
        row.text("review") == "cleared" && row.text("queue_status") == "carried"
    }

    static func blocks(_ month: MonthReport, set: ReportSet, caseLinks: Bool) -> [Block] {
        let rows = ordered(month.rows("flagged_accounts.csv"))
        let open = rows.filter { !isCollapsed($0) }
        let collapsed = rows.filter(isCollapsed)
        func count(_ status: String) -> Int { rows.filter { $0.text("queue_status") == status }.count }
        var blocks: [Block] = [
            .paragraph(
                "\(strong: "The queue"): \(count("new")) new, \(count("active")) active again (a refund, a refund request or a "
                    + "declined refund this month), \(count("carried")) carried from earlier months with nothing new"
                    + (collapsed.isEmpty ? "" : "; \(collapsed.count) of those cleared by a reviewer, collapsed below")
                    + ".")
        ]
        var table = PageTable(
            columns: [
                .init("Queue"), .init("Account"), .init("Rules"), .init("At stake", .right), .init("Since"),
                .init("Review"),
            ], limit: 100, fullFile: "flagged_accounts.csv")
        for row in open {
            let account = row.text("account_id")
            let stake: Text =
                row.text("at_stake_currency").isEmpty
                ? .prose("—") : .money(row.integer("at_stake_milli"), currency: row.text("at_stake_currency"))
            table.rows.append([
                .data(row.text("queue_status")),
                caseLinks ? .link(.data(account), to: AccountPagePath.relative(account)) : .data(account),
                .data(row.text("rules").split(separator: ";").joined(separator: ", ")), stake,
                .data(row.text("first_flagged_month")), .data(decision(row, set: set)),
            ])
        }
        if !open.isEmpty { blocks.append(.table(table)) }
        if !collapsed.isEmpty {
            blocks.append(.paragraph("Cleared, and nothing new since the review:"))
            blocks.append(
                .list(
                    collapsed.map { row in
                        let account = row.text("account_id")
                        let name: Text =
                            caseLinks ? .link(.data(account), to: AccountPagePath.relative(account)) : .data(account)
                        return name + " — " + .data(decision(row, set: set))
                    }))
        }
        return blocks
    }

    /// "cleared by kim on 2026-02-15" for the decision in force (the row's `review`), else "".
    static func decision(_ row: ReportRow, set: ReportSet) -> String {
        let review = row.text("review")
        guard !review.isEmpty, let monthEnd = CalendarMonth(row.text("month"))?.endMs else {
            return ""
        }
        guard let last = set.reviews[row.text("account_id")]?.last(where: { $0.reviewedAt < monthEnd }) else {
            return review
        }
        let day = String(ISO8601Millis.format(last.reviewedAt).prefix(10))
        return review + (last.reviewer.isEmpty ? "" : " by \(last.reviewer)") + " on \(day)"
    }
}
