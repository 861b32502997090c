import IAPStore

/// Reads the marts of each written month into ``MonthReport``s. Rows come sorted by SQL (`order by` the
/// contract's key columns in byte order: ``SQLDialect/binaryCollation`` on text keys), never by Swift.
enum MonthReportReader {
    /// One CSV of the contract and the mart that holds it.
    struct Export {
        let file: String
        let columns: [String]
        let mart: String
        let keyColumns: [String]
    }

    static let exports: [Export] = [
        Export(
            file: "churn.csv", columns: ReportColumns.churn, mart: "churn",
            keyColumns: ["month", "product_id", "churn_type", "reason"]),
        Export(
            file: "expiration_intents.csv", columns: ReportColumns.expirationIntents, mart: "expiration_intents",
            keyColumns: ["month", "product_id", "expiration_intent"]),
        Export(
            file: "billing_retry.csv", columns: ReportColumns.billingRetry, mart: "billing_retry",
            keyColumns: ["month", "product_id"]),
        Export(
            file: "refunds.csv", columns: ReportColumns.refunds, mart: "refunds",
            keyColumns: ["month", "product_type", "product_id", "currency"]),
        Export(
            file: "consumable_losses.csv", columns: ReportColumns.consumableLosses, mart: "consumable_losses",
            keyColumns: ["month", "product_id", "currency"]),
        Export(
            file: "flagged_accounts.csv", columns: ReportColumns.flaggedAccounts, mart: "flagged_accounts",
            keyColumns: ["account_id"]),
        Export(
            file: "reconciliation.csv", columns: ReportColumns.reconciliation, mart: "reconciliation",
            keyColumns: ["month", "currency", "product_type"]),
        Export(
            file: "order_lookups.csv", columns: ReportColumns.orderLookups, mart: "looked_up_orders",
            keyColumns: ["month", "lookup_id"]),
    ]

    /// The key columns that hold integers: ordered as numbers, so no collation applies (PostgreSQL refuses one).
    static let integerKeyColumns: Set<String> = ["expiration_intent"]

    static func read(in connection: any StoreConnection) throws -> [MonthReport] {
        let collation = connection.dialect.binaryCollation
        let months = try connection.rows("select month, has_activity from report_months where is_written order by month")
        var reports: [MonthReport] = []
        for monthRow in months {
            let month = monthRow["month"].text ?? ""
            let hasActivity = monthRow["has_activity"].bool ?? false
            var tables: [ReportTable] = []
            for export in exports {
                let columnList = export.columns.map { "\"\($0)\"" }.joined(separator: ", ")
                let order = export.keyColumns.map {
                    integerKeyColumns.contains($0) ? "\"\($0)\"" : "\"\($0)\" collate \(collation)"
                }.joined(separator: ", ")
                let rows = try connection.rows(
                    "select \(columnList) from \(export.mart) where month = ? order by \(order)", [.text(month)])
                tables.append(
                    ReportTable(name: export.file, columns: export.columns, rows: rows.map { $0.values.map(reportValue) }))
            }
            let flagged = tables.first { $0.name == "flagged_accounts.csv" } ?? ReportTable(name: "", columns: [], rows: [])
            let timelines = try readTimelines(month: month, flagged: flagged, in: connection)
            reports.append(MonthReport(month: month, tables: tables, flaggedTimelines: timelines, isEmpty: !hasActivity))
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
                time: row["event_at_ms"].integer ?? 0, kind: row["kind"].text ?? "", transactionId: row["transaction_id"].text ?? "",
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
