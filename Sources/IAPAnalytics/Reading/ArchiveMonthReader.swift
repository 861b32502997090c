import IAPStore

/// Reads the `archive_months` mart: what each month's figures rest on.
enum ArchiveMonthReader {
    static func read(in connection: any StoreConnection) throws -> [ArchiveMonth] {
        try connection.rows(
            """
            select month, first_archive_day, last_archive_day, archive_days, apple_days_covered
            from archive_months order by month collate \(connection.dialect.binaryCollation)
            """
        ).map { row in
            ArchiveMonth(
                month: row[0].text ?? "", firstArchiveDay: row[1].text, lastArchiveDay: row[2].text,
                archiveDays: row[3].integer ?? 0, appleDaysCovered: row[4].integer ?? 0)
        }
    }

    /// Apple's books before `month` (`YYYY-MM`), per currency Apple pays in.
    static func appleBefore(_ month: String, in connection: any StoreConnection) throws -> [AppleTotal] {
        try connection.rows(
            """
            select partner_share_currency, min(transaction_date), max(transaction_date),
                sum(case when sale_or_return = 'S' then quantity else 0 end),
                sum(case when sale_or_return = 'R' then -quantity else 0 end),
                sum(extended_partner_share_milli)
            from apple_report_rows
            where transaction_date < ?
            group by partner_share_currency
            order by partner_share_currency collate \(connection.dialect.binaryCollation)
            """,
            [.text(month + "-01")]
        ).map { row in
            AppleTotal(
                currency: row[0].text ?? "", firstDay: row[1].text ?? "", lastDay: row[2].text ?? "",
                unitsSold: row[3].integer ?? 0, unitsReturned: row[4].integer ?? 0, proceedsMilli: row[5].integer ?? 0)
        }
    }

    /// The `cohorts` mart as `cohorts.csv`'s table.
    static func cohorts(in connection: any StoreConnection) throws -> ReportTable {
        let columns = ReportColumns.cohorts.map { "\"\($0)\"" }.joined(separator: ", ")
        let rows = try connection.rows(
            "select \(columns) from cohorts order by cohort_month collate \(connection.dialect.binaryCollation), months_since"
        )
        return ReportTable(
            name: ReportColumns.cohortsFileName, columns: ReportColumns.cohorts,
            rows: rows.map { $0.values.map(MonthReportReader.reportValue) })
    }

    /// Each product's period as `mrr.csv` gives it, from every month (one per product: the mart derives it from all the
    /// product's periods in the store).
    static func productPeriods(in connection: any StoreConnection) throws -> [String: String] {
        var periods: [String: String] = [:]
        for row in try connection.rows("select product_id, min(period) from mrr group by product_id") {
            periods[row[0].text ?? ""] = row[1].text ?? ""
        }
        return periods
    }

    /// The SKUs Apple's reports book of which the archive holds no unit on any day they cover
    /// (`apple_reconciliation` over every month).
    static func appleOnlyProducts(in connection: any StoreConnection) throws -> Set<String> {
        Set(
            try connection.rows(
                """
                select product_id from apple_reconciliation
                group by product_id
                having sum(archive_units_sold) = 0 and sum(archive_units_refunded) = 0
                """
            ).compactMap { $0[0].text })
    }

    /// The reviews file's decisions by account, oldest first.
    static func reviews(in connection: any StoreConnection) throws -> [String: [AccountReview]] {
        var reviews: [String: [AccountReview]] = [:]
        for row in try connection.rows(
            "select account_id, decision, reviewed_at_ms, reviewer, note from ref_reviews order by reviewed_at_ms, line"
        ) {
            reviews[row[0].text ?? "", default: []].append(
                AccountReview(
                    decision: row[1].text ?? "", reviewedAt: row[2].integer ?? 0, reviewer: row[3].text ?? "",
                    note: row[4].text ?? ""))
        }
        return reviews
    }
}
