import IAPAnalytics

/// The **Trust and safety** section: flagged accounts with their evidence timeline, consumable losses, order lookups.
enum TrustSafetySection {
    /// Timeline events shown per account (the most recent ones); the rest are in the store.
    static let timelineLimit = 60

    /// In its earlier years Apple sent `REFUND_DECLINED` only for refunds requested in the app, not for those
    /// requested on reportaproblem.apple.com, so every count of declined refunds is a floor for older data.
    static let declinedCaveat =
        "_Declined_ counts are lower bounds for older data: Apple once sent REFUND\\_DECLINED only for refunds requested in the app."

    /// The section's Markdown (sub-headings included, the `## Trust and safety` heading not).
    static func render(month: MonthReport, rules: FlagThresholds) -> String {
        var blocks = ["### Flagged accounts"]
        let flagged = month.rows("flagged_accounts.csv")
        if flagged.isEmpty {
            blocks.append("_No account met a flagging rule in this month._")
        } else {
            blocks.append(
                "Accounts to review before acting: a flag is a reason to look, not proof of abuse. The window is the "
                    + "\(rules.windowDays) days ending with this month. Every flagged account is in "
                    + "[flagged\\_accounts.csv](flagged_accounts.csv). \(declinedCaveat)")
            blocks.append(
                TableView(
                    file: "flagged_accounts.csv",
                    columns: [
                        .init("account_id", "Account"),
                        .init("rules", "Rules", .words { $0.split(separator: ";").joined(separator: ", ") }),
                        .init("refunds_90d", "Refunds (90 d)", .count),
                        .init("consumable_refunds_90d", "Consumable refunds (90 d)", .count),
                        .init("declined_90d", "Declined (90 d)", .count),
                        .init("lifetime_purchases", "Lifetime purchases", .count),
                        .init("lifetime_refunds", "Lifetime refunds", .count),
                        .init("first_refund", "First refund"),
                        .init("last_refund", "Last refund"),
                    ]
                ).render(month))
            for row in flagged.prefix(50) {
                let account = row.text("account_id")
                let timeline = month.flaggedTimelines.first { $0.accountId == account }
                blocks.append(accountDetail(row, timeline: timeline, rules: rules))
            }
        }

        blocks.append("### Consumable losses")
        blocks.append(
            "Refunded consumables (already used up, so the loss is real), and what Apple decided on refund requests. "
                + "_After consumption request_ counts refunds where Apple asked for consumption data before refunding. "
                + declinedCaveat)
        blocks.append(
            TableView(
                file: "consumable_losses.csv",
                columns: [
                    .init("product_id", "Product"),
                    .init("currency", "Currency"),
                    .init("refunds", "Refunds", .count),
                    .init("refunded_gross_milli", "Refunded", .money),
                    .init("lost_proceeds_milli", "Lost proceeds", .money),
                    .init("after_consumption_request", "After consumption request", .count),
                    .init("declined", "Refunds declined", .count),
                    .init("reversed", "Refunds reversed", .count),
                ]
            ).render(month, emptyText: "No consumable refunds in this month."))

        blocks.append(ConsumptionSection.render(month: month))

        blocks.append("### Order lookups")
        blocks.append(
            TableView(
                file: "order_lookups.csv",
                columns: [
                    .init("lookup_id", "Lookup"),
                    .init("order_id", "Order ID"),
                    .init("status", "Status"),
                    .init("transactions", "Transactions", .count),
                    .init("transaction_ids", "Transaction IDs"),
                    .init("refunded_transactions", "Refunded", .count),
                    .init("account_ids", "Accounts"),
                    .init("note", "Note"),
                ]
            ).render(month, emptyText: "No order lookups in this month."))
        return blocks.joined(separator: "\n\n")
    }

    /// One account: its rules in words, the evidence, and the timeline as a table.
    private static func accountDetail(_ row: ReportRow, timeline: FlaggedAccountTimeline?, rules settings: FlagThresholds) -> String {
        let account = row.text("account_id")
        var blocks = ["#### Account " + Markdown(text: account).source]
        let rules = row.text("rules").split(separator: ";").map(String.init)
        blocks.append(
            rules.map { "- " + Markdown(lineStart: Vocabulary.flagRule($0, settings)).source }.joined(separator: "\n"))
        let evidence = row.text("evidence").split(separator: ";").map(String.init)
        if !evidence.isEmpty {
            blocks.append(
                "Refunds in the window (evidence): "
                    + evidence.map { Markdown(text: $0).source }.joined(separator: ", ") + ".")
        }
        guard let timeline, !timeline.events.isEmpty else {
            blocks.append("_No timeline events recorded for this account._")
            return blocks.joined(separator: "\n\n")
        }
        var table = MarkdownTable(columns: [
            .init("Date (UTC)"), .init("Event"), .init("Transaction"), .init("Product"), .init("Amount", .right),
        ])
        let shown = timeline.events.suffix(timelineLimit)
        for event in shown {
            var kind = Markdown(text: Vocabulary.timelineEvent(event.kind))
            if event.kind == "refund" && evidence.contains(event.transactionId) {
                kind = "**" + kind + "**"
            }
            table.rows.append([
                Markdown(text: UTCTimestamp.iso8601(unixMilliseconds: event.time)),
                kind,
                Markdown(text: event.transactionId),
                Markdown(text: event.productId),
                event.amountMilli.map { Markdown(text: MoneyText.amount($0, currency: event.currency)) } ?? "—",
            ])
        }
        var text = table.render(limit: Int.max)
        if timeline.events.count > shown.count {
            text =
                "_The \(shown.count) most recent of \(timeline.events.count) events; older ones are in the store._\n\n"
                + text
        }
        blocks.append(text)
        return blocks.joined(separator: "\n\n")
    }
}
