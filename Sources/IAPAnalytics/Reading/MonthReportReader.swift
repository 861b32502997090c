import IAPStore

/// Reads the marts of each written month into ``MonthReport``s. Rows come sorted by SQL (`order by` the
/// contract's key columns in byte order: ``SQLDialect/binaryCollation`` on text keys), never by Swift.
enum MonthReportReader {
    static func read(in connection: any StoreConnection) throws -> [MonthReport] {
        let collation = connection.dialect.binaryCollation
        let months = try connection.rows(
            "select month, has_activity from report_months where is_written order by month")
        var reports: [MonthReport] = []
        for monthRow in months {
            let month = monthRow["month"].text ?? ""
            let hasActivity = monthRow["has_activity"].bool ?? false
            var tables: [ReportTable] = []
            for file in ReportColumns.files {
                let columnList = file.columns.map { "\"\($0)\"" }.joined(separator: ", ")
                let order = file.keyColumns.map {
                    ReportColumns.integerKeyColumns.contains($0) ? "\"\($0)\"" : "\"\($0)\" collate \(collation)"
                }.joined(separator: ", ")
                let rows = try connection.rows(
                    "select \(columnList) from \(file.mart) where month = ? order by \(order)", [.text(month)])
                tables.append(
                    ReportTable(name: file.name, columns: file.columns, rows: rows.map { $0.values.map(reportValue) }))
            }
            let flagged =
                tables.first { $0.name == "flagged_accounts.csv" } ?? ReportTable(name: "", columns: [], rows: [])
            let timelines = try readTimelines(month: month, flagged: flagged, in: connection)
            reports.append(
                MonthReport(month: month, tables: tables, flaggedTimelines: timelines, isEmpty: !hasActivity))
        }
        return reports
    }

    private static func readTimelines(month: String, flagged: ReportTable, in connection: any StoreConnection) throws
        -> [FlaggedAccountTimeline]
    {
        let collation = connection.dialect.binaryCollation
        let rows = try connection.rows(
            """
            select account_id, event_at_ms, kind, transaction_id, product_id, amount_milli, currency
            from flagged_account_events
            where month = ?
            order by account_id collate \(collation), event_at_ms, transaction_id collate \(collation),
                kind collate \(collation)
            """,
            [.text(month)])
        var eventsByAccount: [String: [TimelineEvent]] = [:]
        for row in rows {
            let event = TimelineEvent(
                time: row["event_at_ms"].integer ?? 0, kind: row["kind"].text ?? "",
                transactionId: row["transaction_id"].text ?? "",
                productId: row["product_id"].text ?? "", amountMilli: row["amount_milli"].integer,
                currency: row["currency"].text ?? "XXX")
            eventsByAccount[row["account_id"].text ?? "", default: []].append(event)
        }
        return flagged.column("account_id").compactMap { value in
            guard case .text(let account) = value else { return nil }
            return FlaggedAccountTimeline(accountId: account, events: eventsByAccount[account] ?? [])
        }
    }

    static func reportValue(_ value: SQLValue) -> ReportValue {
        switch value {
        case .null: return .empty
        case .integer(let number): return .integer(number)
        case .text(let text), .other(let text): return .text(text)
        }
    }
}
