import IAPAnalytics

/// One flagged account's evidence: the rules it met in words, the refunds in the window, and its timeline as a
/// table. Shown under the Markdown page's table, and on the HTML case page.
enum AccountEvidence {
    /// Heading, rules, evidence and timeline: the account's part of the Markdown page.
    static func blocks(_ row: ReportRow, timeline: FlaggedAccountTimeline?, rules settings: FlagThresholds) -> [Block] {
        var blocks: [Block] = [.heading(level: 4, "Account \(row.text("account_id"))")]
        blocks += rules(row, settings)
        guard let timeline, !timeline.events.isEmpty else {
            blocks.append(.aside("No timeline events recorded for this account."))
            return blocks
        }
        blocks += timelineTable(timeline.events, row: row, limit: TrustSafetySection.timelineLimit)
        return blocks
    }

    /// The rules met, in words with their thresholds, and the refunds in the window.
    static func rules(_ row: ReportRow, _ settings: FlagThresholds) -> [Block] {
        let rules = row.text("rules").split(separator: ";").map(String.init)
        var blocks: [Block] = [.list(rules.map { Text.data(Vocabulary.flagRule($0, settings)) })]
        let evidence = evidence(row)
        if !evidence.isEmpty {
            blocks.append(
                .paragraph(
                    "Refunds in the window (evidence): " + Text.joined(evidence.map(Text.data), separator: ", ") + "."))
        }
        return blocks
    }

    /// The refunded transaction IDs in the window.
    static func evidence(_ row: ReportRow) -> [String] {
        row.text("evidence").split(separator: ";").map(String.init)
    }

    /// The most recent `limit` events as a table, refunds in the evidence in bold; a line first when some are cut.
    static func timelineTable(_ events: [TimelineEvent], row: ReportRow, limit: Int) -> [Block] {
        let evidence = evidence(row)
        var table = PageTable(columns: [
            .init("Date (UTC)"), .init("Event"), .init("Transaction"), .init("Product"), .init("Amount", .right),
        ])
        let shown = events.suffix(limit)
        for event in shown {
            var kind = Text.data(Vocabulary.timelineEvent(event.kind))
            if event.kind == "refund" && evidence.contains(event.transactionId) { kind = .strong(kind) }
            table.rows.append([
                .data(UTCTimestamp.iso8601(unixMilliseconds: event.time)),
                kind,
                .data(event.transactionId),
                .data(event.productId),
                event.amountMilli.map { .money($0, currency: event.currency) } ?? "—",
            ])
        }
        var blocks: [Block] = []
        if events.count > shown.count {
            blocks.append(
                .aside("The \(shown.count) most recent of \(events.count) events; older ones are in the store."))
        }
        blocks.append(.table(table))
        return blocks
    }
}
