import IAPAnalytics
import IAPFinanceFiles
import IAPFormats
import IAPStore

/// "Against Apple's financial reports", in the finance section: per product and currency whether the archive holds
/// what Apple booked, where the gap lies and the command that closes it, and Apple's proceeds beside the estimate
/// (Documentation/Reports.md "apple_reconciliation.csv").
enum AppleReconciliationSection {
    static let file = "apple_reconciliation.csv"

    static func render(month: MonthReport, set: ReportSet) -> [Block] {
        var blocks: [Block] = [.heading(level: 3, "Against Apple's financial reports", anchor: "against-apple")]
        let rows = month.rows(file)
        guard !set.appleReports.isEmpty else {
            blocks.append(
                .paragraph(
                    "No Apple financial report is loaded: download the month's detailed report in App Store Connect "
                        + "(Payments and Financial Reports, region Z1) and pass it with \(code: "--input"), or fetch it with "
                        + "\(code: "iaplens fetch --connect-issuer-id … --connect-key-id … --connect-private-key … --vendor-number …"), "
                        + "and this section compares it with the archive."))
            return blocks
        }
        let covered = rows.first.map { $0.integer("days_covered") } ?? coveredDays(month.month, set.appleReports)
        guard covered > 0 else {
            blocks.append(
                .paragraph(
                    "No loaded Apple financial report covers a day of this month (Apple publishes a fiscal month about a "
                        + "week after it ends): fetch it with \(code: "iaplens fetch --connect-…") or pass its file with "
                        + "\(code: "--input"), and this section compares it with the archive."))
            return blocks
        }
        let statuses = Dictionary(grouping: rows, by: { $0.text("status") }).mapValues(\.count)
        var summary: Text =
            "Apple's reports cover \(strong: .prose("\(covered)")) day\(covered == 1 ? "" : "s") of this month "
            + "(days in \(set.appleTimeZone), sales by purchase, refunds by refund date; units, not transactions). "
        if rows.isEmpty {
            summary += "Neither Apple nor the archive counts a sale or refund on them."
        } else {
            let parts = ["match", "archive_short", "archive_over", "both"].compactMap { status -> Text? in
                guard let count = statuses[status] else { return nil }
                return "\(count) " + .data(Vocabulary.appleStatus(status))
            }
            summary +=
                "Of \(rows.count) product and currency row\(rows.count == 1 ? "" : "s"): "
                + Text.joined(parts, separator: ", ") + "."
        }
        blocks.append(.paragraph(summary))
        guard !rows.isEmpty else { return blocks }
        var table = PageTable(
            columns: [
                .init("Product"), .init("Currency"), .init("Status"), .init("Units sold, Apple / archive", .right),
                .init("Units refunded, Apple / archive", .right), .init("Gap days"), .init("Apple proceeds", .right),
                .init("Est. proceeds", .right),
            ], limit: 50, fullFile: file)
        for row in rows {
            let gap =
                row.text("first_gap_day").isEmpty
                ? Text()
                : .unbroken(
                    .data(
                        row.text("first_gap_day")
                            + (row.text("last_gap_day") == row.text("first_gap_day")
                                ? "" : " … " + row.text("last_gap_day"))))
            table.rows.append([
                .data(row.text("product_id")), .data(row.text("currency")),
                .unbroken(.data(Vocabulary.appleStatus(row.text("status")))),
                .counts(row.integer("apple_units_sold"), row.integer("archive_units_sold")),
                .counts(row.integer("apple_units_refunded"), row.integer("archive_units_refunded")),
                gap, appleProceeds(row),
                .money(row.integer("archive_est_proceeds_milli"), currency: row.text("currency")),
            ])
        }
        blocks.append(.table(table))
        blocks += remedies(
            rows, zone: set.appleTimeZone, asOf: set.asOf, appleOnly: set.appleOnlyProducts, bundleId: set.bundleId)
        blocks += proceeds(rows, appleOnly: set.appleOnlyProducts)
        return blocks
    }

    /// Apple's proceeds in its own currency, or why there is none.
    private static func appleProceeds(_ row: ReportRow) -> Text {
        switch row.text("proceeds_currency") {
        case "": return .prose("no Apple row")
        case "mixed": return .prose("several currencies")
        case let currency: return .money(row.integer("apple_proceeds_milli"), currency: currency)
        }
    }

    /// What to run for each row that does not match: Notification History over the gap window for missing sales,
    /// a refund-history lookup for missing refunds; only for windows inside Apple's 180 days of history (counted back
    /// from `T`, so the page stays the same on every rerun), else what still holds the truth. A product whose units
    /// agree with Apple's across its currencies is short in none: its V1 sales carry no currency of their own. A
    /// product of which the archive holds nothing on any covered day is first said to be perhaps another app's: Apple's
    /// report covers every app of the account, and no fetch for this app recovers another's.
    private static func remedies(
        _ rows: [ReportRow], zone: String, asOf: Int64, appleOnly: Set<String>, bundleId: String
    ) -> [Block] {
        var items: [Text] = []
        var currencyUnknown: Set<String> = []
        for (product, productRows) in Dictionary(grouping: rows, by: { $0.text("product_id") })
        where productRows.count > 1 && productRows.contains(where: { $0.text("status") != "match" }) {
            let sum = { (column: String) in productRows.reduce(Int64(0)) { $0 + $1.integer(column) } }
            if sum("apple_units_sold") == sum("archive_units_sold")
                && sum("apple_units_refunded") == sum("archive_units_refunded")
            {
                currencyUnknown.insert(product)
            }
        }
        for product in currencyUnknown.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let units = rows.filter { $0.text("product_id") == product }.reduce(Int64(0)) {
                $0 + $1.integer("apple_units_sold")
            }
            items.append(
                .data(product)
                    + ": Apple's units and the archive's agree across currencies (\(units) sold on each side); "
                    + "the archive's V1 sales carry no currency of their own (they are priced from products.csv), so their "
                    + "currency is unknown, not short in one and over in another. Nothing is missing; nothing to fetch."
            )
        }
        let horizon = asOf - HistoryCoverage.appleRetentionMs
        for row in rows where row.text("status") != "match" && !currencyUnknown.contains(row.text("product_id")) {
            let key: Text = .data(row.text("product_id")) + " " + .data(row.text("currency")) + ": "
            let short = row.integer("apple_units_sold") > row.integer("archive_units_sold")
            let shortRefunds = row.integer("apple_units_refunded") > row.integer("archive_units_refunded")
            let over =
                row.integer("apple_units_sold") < row.integer("archive_units_sold")
                || row.integer("apple_units_refunded") < row.integer("archive_units_refunded")
            var item = key
            if appleOnly.contains(row.text("product_id")) {
                item +=
                    "the archive holds no sale or refund of this product on any day Apple's reports cover. Apple's "
                    + "report covers every app of the App Store Connect account: if it is another app's product, nothing "
                    + "is missing from this one (" + .data(bundleId) + "). If it is this app's, "
            }
            if short || shortRefunds,
                let window = fetchWindow(row.text("first_gap_day"), row.text("last_gap_day"), zone: zone)
            {
                item +=
                    "the archive lacks what Apple booked on " + .data(row.text("first_gap_day"))
                    + (row.text("last_gap_day") == row.text("first_gap_day")
                        ? "" : " … " + .data(row.text("last_gap_day")))
                if (ISO8601Millis.parse(window.since) ?? 0) >= horizon {
                    item +=
                        "; Notification History recovers it: \(code: "iaplens fetch --since \(window.since) --until \(window.until)")"
                    if shortRefunds {
                        item +=
                            ", and a refund-history lookup (\(code: "--refund-history all"), the default) recovers refunds"
                    }
                    item += "."
                } else {
                    item +=
                        "; that is older than the \(HistoryCoverage.appleRetentionMs / CivilCalendar.millisecondsPerDay) days Apple keeps Notification "
                        + "History (counted back from this report's as-of time), so the archive cannot recover it: Apple's "
                        + "financial report above is what still holds the truth for those days."
                }
            }
            if over {
                if short || shortRefunds { item += " " }
                item +=
                    "the archive counts more than Apple: a sale Apple dated on another day, another app's product "
                    + "under this SKU, or V1 transactions priced from products.csv in another currency (V1 carries none)."
            }
            items.append(item)
        }
        guard !items.isEmpty else { return [] }
        return [
            .paragraph("What to do (paste with your usual \(code: "fetch") options, then run again):"), .list(items),
        ]
    }

    /// The UTC instants of the first moment of `first` and of the day after `last`, in Apple's zone.
    static func fetchWindow(_ first: String, _ last: String, zone: String) -> (since: String, until: String)? {
        guard let zone = AppleTimeZone(identifier: zone), let start = ReportDay(isoText: first),
            let end = ReportDay(isoText: last)?.next
        else { return nil }
        return (ISO8601Millis.format(zone.startOfDay(start)), ISO8601Millis.format(zone.startOfDay(end)))
    }

    /// Apple's proceeds against the estimate, per currency, with what makes them differ; Apple's proceeds of products
    /// the archive holds nothing of (perhaps another app's) are named, since the estimate cannot include them.
    private static func proceeds(_ rows: [ReportRow], appleOnly: Set<String>) -> [Block] {
        var apple = CurrencyAmounts()
        var estimate = CurrencyAmounts()
        var unmatched = CurrencyAmounts()
        for row in rows {
            let currency = row.text("proceeds_currency")
            if !currency.isEmpty && currency != "mixed" {
                apple.add(row.integer("apple_proceeds_milli"), currency: currency)
                if appleOnly.contains(row.text("product_id")) {
                    unmatched.add(row.integer("apple_proceeds_milli"), currency: currency)
                }
            }
            estimate.add(row.integer("archive_est_proceeds_milli"), currency: row.text("currency"))
        }
        var table = PageTable(columns: [
            .init("Currency"), .init("Apple proceeds", .right), .init("Est. proceeds (archive, same days)", .right),
            .init("Difference", .right),
        ])
        let currencies = (apple.currencies + estimate.currencies.filter { !apple.currencies.contains($0) })
        for currency in currencies {
            table.rows.append([
                .data(currency), .money(apple[currency], currency: currency),
                .money(estimate[currency], currency: currency),
                .money(apple[currency] - estimate[currency], currency: currency),
            ])
        }
        return [
            .paragraph(
                "\(strong: "Proceeds.") Apple's column is what Apple pays: its share of each price after "
                    + "commission and after the VAT or other taxes included in the price. The estimate applies \(BusinessRules.standardProceedsPercent) % or \(BusinessRules.reducedProceedsPercent) % "
                    + "to the tax-inclusive price, so it runs higher where prices include VAT, and it moves with any gap in units."
                    + (unmatched.currencies.isEmpty
                        ? ""
                        : " Of Apple's column, "
                            + Text.joined(
                                unmatched.currencies.map { .money(unmatched[$0], currency: $0) }, separator: ", ")
                            + " is of products the archive holds nothing of (above: perhaps another app's).")),
            .table(table),
        ]
    }

    /// Days of `month` that a loaded report covers (for a month with no row).
    private static func coveredDays(_ month: String, _ reports: [AppleReportCoverage]) -> Int64 {
        var days: Set<String> = []
        for report in reports where report.firstDay.prefix(7) <= month && month <= report.lastDay.prefix(7) {
            for day in 1...31 {
                guard let text = ReportDay(isoText: month + (day < 10 ? "-0\(day)" : "-\(day)"))?.isoText else {
                    continue
                }
                if text >= report.firstDay && text <= report.lastDay { days.insert(text) }
            }
        }
        return Int64(days.count)
    }
}
