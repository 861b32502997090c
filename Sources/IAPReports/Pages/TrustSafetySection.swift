import IAPAnalytics

/// The **Trust and safety** section: flagged accounts with their evidence, consumable losses, consumption requests,
/// order lookups.
enum TrustSafetySection {
    /// Timeline events shown per account (the most recent ones); the rest are in the store.
    static let timelineLimit = 60

    /// In its earlier years Apple sent `REFUND_DECLINED` only for refunds requested in the app, not for those
    /// requested on reportaproblem.apple.com, so every count of declined refunds is a floor for older data.
    static let declinedCaveat: Text =
        "\(em: "Declined") counts are lower bounds for older data: Apple once sent \(code: "REFUND_DECLINED") only for "
        + "refunds requested in the app."

    /// The section's blocks (sub-headings included, the `Trust and safety` heading not).
    /// - Parameter details: Whether each account's rules and timeline follow the table (the Markdown page); the
    ///   HTML page links each account to its case page instead.
    static func render(month: MonthReport, rules: FlagThresholds, details: Bool, set: ReportSet? = nil) -> [Block] {
        var blocks: [Block] = [.heading(level: 3, "Flagged accounts", anchor: "flagged-accounts")]
        let flagged = month.rows("flagged_accounts.csv")
        if flagged.isEmpty {
            blocks.append(.aside("No account met a flagging rule in this month."))
        } else {
            let caseWord: Text = details ? "" : " Each account links to its case page."
            blocks.append(
                .paragraph(
                    "Accounts to review before acting: a flag is a reason to look, not proof of abuse. The window is "
                        + "the \(rules.windowDays) days ending with this month. Every flagged account is in "
                        + "\(link: .data("flagged_accounts.csv"), to: "flagged_accounts.csv")." + caseWord + " "
                        + declinedCaveat))
            if let set { blocks += ReviewQueue.blocks(month, set: set, caseLinks: !details) }
            blocks.append(
                TableView(
                    file: "flagged_accounts.csv",
                    columns: [
                        .init("account_id", "Account", .link { AccountPagePath.relative($0) }),
                        .init("rules", "Rules", .words { $0.split(separator: ";").joined(separator: ", ") }),
                        .init("refunds_90d", "Refunds (\(rules.windowDays) d)", .count),
                        .init("consumable_refunds_90d", "Consumable refunds (\(rules.windowDays) d)", .count),
                        .init("declined_90d", "Declined (\(rules.windowDays) d)", .count),
                        .init("lifetime_purchases", "Lifetime purchases", .count),
                        .init("lifetime_refunds", "Lifetime refunds", .count),
                        // Date and time apart, so a narrow page wraps between them (the CSV keeps ISO 8601).
                        .init("first_refund", "First refund", .words(Self.readableTime)),
                        .init("last_refund", "Last refund", .words(Self.readableTime)),
                    ]
                ).render(month))
            if details {
                for row in ReviewQueue.ordered(flagged).filter({ !ReviewQueue.isCollapsed($0) }).prefix(50) {
                    let account = row.text("account_id")
                    let timeline = month.flaggedTimelines.first { $0.accountId == account }
                    blocks += AccountEvidence.blocks(row, timeline: timeline, rules: rules)
                }
            }
        }

        blocks.append(.heading(level: 3, "Consumable losses"))
        blocks.append(
            .paragraph(
                "Refunded consumables (already used up, so the loss is real), and what Apple decided on refund "
                    + "requests. \(em: "After consumption request") counts refunds where Apple asked for consumption "
                    + "data before refunding. " + declinedCaveat))
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

        let flaggedIds = Set(flagged.map { $0.text("account_id") })
        blocks += ConsumptionSection.render(month: month) { account in
            flaggedIds.contains(account) ? AccountPagePath.relative(account) : nil
        }

        blocks.append(.heading(level: 3, "Order lookups"))
        blocks.append(
            TableView(
                file: "order_lookups.csv",
                columns: [
                    .init("lookup_id", "Lookup", .words(Self.readableLookup)),
                    .init("order_id", "Order ID"),
                    .init("status", "Status"),
                    .init("transactions", "Transactions", .count),
                    .init("transaction_ids", "Transaction IDs", .words(Self.readableList)),
                    .init("refunded_transactions", "Refunded", .words(Self.readableList)),
                    .init("account_ids", "Accounts", .words(Self.readableList)),
                    .init("note", "Note"),
                ]
            ).render(month, emptyText: "No order lookups in this month."))
        return blocks
    }

    /// `2025-12-03 10:00:00Z` for `2025-12-03T10:00:00Z`: the page may wrap it; the CSV keeps ISO 8601.
    static func readableTime(_ value: String) -> String {
        value.count == 20 && value.dropFirst(10).first == "T" ? value.prefix(10) + " " + value.dropFirst(11) : value
    }

    /// `a; b; c` for the CSV's `a;b;c`, so a long list wraps between its items.
    static func readableList(_ value: String) -> String {
        value.split(separator: ";", omittingEmptySubsequences: false).joined(separator: "; ")
    }

    /// A generated lookup key (`generated:<64 hex>`) shortened on the page to its first 12 digits; the CSV has it whole.
    static func readableLookup(_ value: String) -> String {
        value.hasPrefix("generated:") && value.count > 22 ? String(value.prefix(22)) + "…" : value
    }
}
