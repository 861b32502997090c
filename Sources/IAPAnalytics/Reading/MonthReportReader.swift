import GRDB

/// Reads the marts of each written month into ``MonthReport``s. Rows come sorted by SQL (`order by` the
/// contract's key columns, SQLite's BINARY collation: byte order), never by Swift.
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

    static func read(in db: Database) throws -> [MonthReport] {
        let months = try Row.fetchAll(
            db, sql: "select month, has_activity from report_months where is_written order by month")
        var reports: [MonthReport] = []
        for monthRow in months {
            let month: String = monthRow["month"]
            let hasActivity: Bool = monthRow["has_activity"]
            var tables: [ReportTable] = []
            for export in exports {
                let columnList = export.columns.map { "\"\($0)\"" }.joined(separator: ", ")
                let order = export.keyColumns.map { "\"\($0)\" collate binary" }.joined(separator: ", ")
                let rows = try Row.fetchAll(
                    db, sql: "select \(columnList) from \(export.mart) where month = ? order by \(order)",
                    arguments: [month])
                tables.append(
                    ReportTable(
                        name: export.file, columns: export.columns,
                        rows: rows.map { row in row.databaseValues.map(reportValue) }))
            }
            let timelines = try readTimelines(month: month, flagged: tables[5], in: db)
            reports.append(MonthReport(month: month, tables: tables, flaggedTimelines: timelines, isEmpty: !hasActivity))
        }
        return reports
    }

    private static func readTimelines(month: String, flagged: ReportTable, in db: Database) throws
        -> [FlaggedAccountTimeline]
    {
        let rows = try Row.fetchAll(
            db,
            sql: """
                select account_id, event_at_ms, kind, transaction_id, product_id, amount_milli, currency
                from flagged_account_events
                where month = ?
                order by account_id, event_at_ms, transaction_id, kind
                """,
            arguments: [month])
        var eventsByAccount: [String: [TimelineEvent]] = [:]
        for row in rows {
            let event = TimelineEvent(
                time: row["event_at_ms"], kind: row["kind"], transactionId: row["transaction_id"],
                productId: row["product_id"] ?? "", amountMilli: row["amount_milli"], currency: row["currency"] ?? "XXX")
            eventsByAccount[row["account_id"], default: []].append(event)
        }
        return flagged.column("account_id").compactMap { value in
            guard case .text(let account) = value else { return nil }
            return FlaggedAccountTimeline(accountId: account, events: eventsByAccount[account] ?? [])
        }
    }

    static func reportValue(_ value: DatabaseValue) -> ReportValue {
        switch value.storage {
        case .null: return .empty
        case .int64(let number): return .integer(number)
        case .string(let text): return .text(text)
        case .double(let number):
            // The models compute integers only; a double here would be a model bug, kept visible.
            return number.rounded() == number && abs(number) < 9e15 ? .integer(Int64(number)) : .text(String(number))
        case .blob: return .empty
        }
    }
}
