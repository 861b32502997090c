import IAPAnalytics
import IAPFormats

/// Describes a flagged account's case page, `reports/<YYYY-MM>/accounts/<name>.html`: what a reviewer needs to act
/// on one account. The rules it met with their evidence, its totals purchased and refunded per currency, its
/// timeline as a chart and a table, its consumption requests of the month, and the other months it was flagged in.
enum CasePageRenderer {
    /// Timeline rows shown on a case page; an account with more has the most recent ones, and the store the rest.
    static let timelineLimit = 500

    /// The timeline chart's lanes, top to bottom, by event kind.
    static let lanes = ["purchase", "consumption_request", "refund", "refund_declined", "refund_reversed", "decision"]

    /// The case page of one flagged account (a row of the month's `flagged_accounts.csv`).
    static func page(account row: ReportRow, month: MonthReport, set: ReportSet, index: FlaggedAccountIndex) -> Page {
        let account = row.text("account_id")
        let timeline = index.timeline(of: account, in: month.month)
        let events = timeline?.events ?? []
        var blocks: [Block] = [
            .paragraph(
                MonthPageRenderer.runLine(set)
                    + " · \(link: "\(month.month) report", to: "../report.md#flagged-accounts")"
                    + " · \(link: "all months", to: "../../index.md")")
        ]
        // Only what bears on the evidence: unchecked signatures. Tax and provisional-finance banners are finance's.
        if let warning = DataQualitySection.noVerifyWarning(set.dataQuality) { blocks.append(warning) }
        blocks.append(
            .paragraph(
                "A flag is a reason to look, not proof of abuse. The window is the \(set.flagRules.windowDays) days "
                    + "ending with \(month.month); lifetime figures count everything before the window's end."))

        blocks.append(
            .paragraph(
                "\(strong: "Queue"): " + .data(row.text("queue_status")) + ", first flagged in "
                    + .data(row.text("first_flagged_month"))
                    + (row.text("at_stake_currency").isEmpty
                        ? Text()
                        : ", " + .money(row.integer("at_stake_milli"), currency: row.text("at_stake_currency"))
                            + " at stake")
                    + "."))
        blocks += decisions(set.reviews[account] ?? [])

        blocks.append(.heading(level: 2, "Rules met", anchor: "rules"))
        blocks += AccountEvidence.rules(row, set.flagRules)
        blocks.append(figuresTable(row, rules: set.flagRules))

        blocks.append(.heading(level: 2, "Purchased and refunded", anchor: "totals"))
        blocks.append(totals(events))

        blocks.append(.heading(level: 2, "Timeline", anchor: "timeline"))
        if events.isEmpty {
            blocks.append(.aside("No timeline events recorded for this account."))
        } else {
            // The reviewers' decisions up to the window's end are marks of their own lane.
            let monthEnd = CalendarMonth(month.month)?.endMs ?? Int64.max
            let decisions = (set.reviews[account] ?? []).filter { $0.reviewedAt < monthEnd }.map { review in
                TimelineEvent(
                    time: review.reviewedAt, kind: "decision",
                    transactionId: review.decision + (review.reviewer.isEmpty ? "" : " by " + review.reviewer),
                    productId: "", amountMilli: nil, currency: "")
            }
            blocks.append(.chart(timelineChart(Array(events.suffix(timelineLimit)) + decisions)))
            blocks += AccountEvidence.timelineTable(events, row: row, limit: timelineLimit)
        }

        blocks.append(.heading(level: 2, "Consumption requests this month", anchor: "consumption-requests"))
        blocks.append(consumptionRequests(index.consumptionRequests(of: account, in: month.month)))

        blocks.append(.heading(level: 2, "Other months flagged", anchor: "other-months"))
        let others = index.months(flagging: account).filter { $0 != month.month }
        blocks.append(
            others.isEmpty
                ? .aside("Not flagged in any other month of this report set.")
                : .paragraph(
                    Text.joined(
                        others.map { .link(.data($0), to: "../../\($0)/" + AccountPagePath.relative(account)) },
                        separator: " · ")))
        return Page(title: "Account \(account) — flagged in \(month.month)", blocks: blocks, depth: 2)
    }

    private static func figuresTable(_ row: ReportRow, rules: FlagThresholds) -> Block {
        let days = rules.windowDays
        let figures: [(String, String)] = [
            ("Refunds in the \(days) days", "refunds_90d"),
            ("Consumable refunds in the \(days) days", "consumable_refunds_90d"),
            ("Refunds declined in the \(days) days", "declined_90d"),
            ("Lifetime purchases", "lifetime_purchases"),
            ("Lifetime refunds", "lifetime_refunds"),
            ("First refund in the window (UTC)", "first_refund"),
            ("Last refund in the window (UTC)", "last_refund"),
        ]
        return .table(
            PageTable(
                columns: [.init("Figure"), .init("Value", .right)],
                rows: figures.map { [.prose($0.0), .data(row.text($0.1))] }))
    }

    /// Per currency: paid purchases and refunds on the timeline, counted and summed.
    private static func totals(_ events: [TimelineEvent]) -> Block {
        var purchased = CurrencyAmounts()
        var purchases = CurrencyAmounts()
        var refunded = CurrencyAmounts()
        var refunds = CurrencyAmounts()
        for event in events {
            switch event.kind {
            case "purchase":
                purchases.add(1, currency: event.currency)
                purchased.add(event.amountMilli ?? 0, currency: event.currency)
            case "refund":
                refunds.add(1, currency: event.currency)
                refunded.add(event.amountMilli ?? 0, currency: event.currency)
            default: continue
            }
        }
        let currencies = CurrencyAmounts.unionOfCurrencies([purchases, refunds])
        guard !currencies.isEmpty else { return .aside("No purchases or refunds on the timeline.") }
        var table = PageTable(columns: [
            .init("Currency"), .init("Purchases", .right), .init("Purchased", .right), .init("Refunds", .right),
            .init("Refunded", .right),
        ])
        for currency in currencies {
            table.rows.append([
                .data(currency), .count(purchases[currency]),
                .money(purchased[currency], currency: currency), .count(refunds[currency]),
                .money(refunded[currency], currency: currency),
            ])
        }
        return .table(table)
    }

    private static func timelineChart(_ events: [TimelineEvent]) -> ChartSpec {
        let day: Int64 = CivilCalendar.millisecondsPerDay
        let first = events.map(\.time).min() ?? 0
        let last = events.map(\.time).max() ?? 0
        let pad = max((last - first) / 20, day)
        let marks = events.map { event in
            ChartSpec.Timeline.Event(
                time: event.time, lane: lanes.firstIndex(of: event.kind) ?? lanes.count,
                label: "\(event.transactionId) \(event.productId)"
                    + (event.amountMilli.map { " " + MoneyText.amount($0, currency: event.currency) } ?? ""))
        }
        let laneNames =
            lanes.map(Vocabulary.timelineEvent) + (marks.contains { $0.lane == lanes.count } ? ["other"] : [])
        return ChartSpec(
            name: "timeline", title: "Timeline",
            caption: "Each mark is one event of the account, by kind: purchases, consumption requests, refunds, "
                + "declined and reversed refunds (the table below lists them), and the reviewers' decisions.",
            body: .timeline(.init(lanes: laneNames, events: marks, start: first - pad, end: last + pad)))
    }

    private static func consumptionRequests(_ rows: [ReportRow]) -> Block {
        guard !rows.isEmpty else { return .aside("No consumption request for this account in this month.") }
        return .table(
            PageTable(
                columns: [
                    .init("Requested (UTC)"), .init("Transaction"), .init("The customer's reason"), .init("Answer"),
                    .init("Preference"), .init("Apple's decision"),
                ],
                rows: rows.map { row in
                    let refundReason = Vocabulary.revocationReason(row.text("revocation_reason"))
                    return [
                        .data(row.text("requested_at")), .data(row.text("transaction_id")),
                        .data(Vocabulary.consumptionRequestReason(row.text("consumption_request_reason"))),
                        .data(Vocabulary.consumptionAnswer(row.text("answer"))), .data(row.text("refund_preference")),
                        .data(row.text("decision") + (refundReason.isEmpty ? "" : " (Apple: \(refundReason))")),
                    ]
                }))
    }

    /// Every decision of the reviews file about the account, oldest first, with date, reviewer and note.
    private static func decisions(_ reviews: [AccountReview]) -> [Block] {
        var blocks: [Block] = [.heading(level: 2, "Decisions", anchor: "decisions")]
        guard !reviews.isEmpty else {
            blocks.append(.aside("No decision recorded for this account (\(code: "--reviews"))."))
            return blocks
        }
        blocks.append(
            .list(
                reviews.map { review -> Text in
                    let day = String(ISO8601Millis.format(review.reviewedAt).prefix(10))
                    var line: Text = .data(day) + ": " + .data(review.decision)
                    if !review.reviewer.isEmpty { line += " by " + .data(review.reviewer) }
                    if !review.note.isEmpty { line += " — " + .data(review.note) }
                    return line
                }))
        return blocks
    }
}
