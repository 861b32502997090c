import IAPAnalytics

/// The **Subscribers** part of the product section: the base behind the churn (subscriptions.csv), with each rate
/// beside the counts it comes from.
enum SubscribersSection {
    static func render(month: MonthReport, figures: MonthFigures, isProvisional: Bool) -> [Block] {
        var blocks: [Block] = [.heading(level: 3, "Subscribers", anchor: "subscribers")]
        let rows = month.rows("subscriptions.csv")
        guard !rows.isEmpty else {
            blocks.append(
                .aside("No auto-renewable subscription was active, started, churned or on a trial in this month."))
            return blocks
        }
        // Rates per plan length where the month has more than one (MonthFigures.rateScopes): a yearly plan churns at
        // most once a year, so one rate over both would compare nothing.
        let scopes = figures.rateScopes.map { figures.plan($0) }
        func perScope(_ rates: (PlanLengthFigures) -> String) -> String {
            scopes.map { ($0.length.isEmpty ? "" : "\($0.length): ") + rates($0) }.joined(separator: "; ")
        }
        let churnRates = perScope {
            rate($0.voluntaryChurn, of: $0.activeStart) + " voluntary, " + rate($0.involuntaryChurn, of: $0.activeStart)
                + " involuntary (billing)"
        }
        let conversions = perScope { rate($0.trialsConverted, of: $0.trialsEnded, noun: "converted") }
        var summary: Text =
            "\(strong: "\(figures.activeStart)") paid subscriptions were active when the month began "
            + "and \(strong: "\(figures.activeEnd)") at its end; \(figures.newPaid) new; churned: "
            + "\(figures.voluntaryChurn) voluntary, \(figures.involuntaryChurn) involuntary, \(figures.otherChurn) other. "
            + "Churn rate\(scopes.count > 1 ? " by plan length" : ""): " + .prose(churnRates) + ". Trials: "
            + "\(figures.trialsStarted) started, \(figures.trialsEnded) ended; conversion"
            + "\(scopes.count > 1 ? " by plan length" : ""): " + .prose(conversions) + "."
        if isProvisional {
            summary += " " + "\(em: "Provisional:") churn and billing recoveries of this month may still change."
        }
        blocks.append(.paragraph(summary))
        var table = PageTable(
            columns: [
                .init("Product"), .init("Active at start", .right), .init("New", .right),
                .init("Churned: voluntary / involuntary / other", .right), .init("Churn rate, voluntary", .right),
                .init("Churn rate, involuntary", .right), .init("Active at end", .right),
                .init("Trials: started / ended", .right), .init("Trial conversion", .right),
            ], limit: 50, fullFile: "subscriptions.csv")
        for row in rows {
            let start = row.integer("active_start")
            table.rows.append([
                .data(row.text("product_id")), .count(start), .count(row.integer("new_paid")),
                .counts(
                    row.integer("churned_voluntary"), row.integer("churned_involuntary"), row.integer("churned_other")),
                .unbroken(.data(rate(row.integer("churned_voluntary"), of: start))),
                .unbroken(.data(rate(row.integer("churned_involuntary"), of: start))),
                .count(row.integer("active_end")),
                .counts(row.integer("trials_started"), row.integer("trials_ended")),
                .unbroken(
                    .data(rate(row.integer("trials_converted"), of: row.integer("trials_ended"), noun: "converted"))),
            ])
        }
        blocks.append(.table(table))
        blocks.append(
            .aside(
                "Churn rate = subscriptions churned in the month ÷ those active when it began; trial conversion = trials "
                    + "converted (a paid renewal within \(BusinessRules.billingRetryWindowDays) days of the trial's end) ÷ trials that ended. Subscriptions in "
                    + "billing retry or grace are not active, and resubscriptions come back, so the end need not equal "
                    + "the start plus new minus churned."))
        return blocks
    }

    /// `5.2 % (3 of 58)`; `— (3 of 0)` without a base.
    static func rate(_ part: Int64, of whole: Int64, noun: String? = nil) -> String {
        let counts = noun.map { CountText.of(part, whole) + " " + $0 } ?? CountText.of(part, whole)
        guard let tenths = ChangeText.rateTenths(part, of: whole) else { return "— (\(counts))" }
        return "\(ChangeText.percent(tenths: tenths)) (\(counts))"
    }
}
