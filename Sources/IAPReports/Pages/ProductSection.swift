import IAPAnalytics

/// The **Product** section: churn (voluntary against involuntary, reasons), expiration intents, billing retry.
enum ProductSection {
    /// Products drawn in the churn chart; the rest are in the table and CSV.
    static let chartedProducts = 12

    /// The section's Markdown (sub-headings included, the `## Product` heading not).
    static func render(month: MonthReport, figures: MonthFigures) -> String {
        var blocks = ["### Churn"]
        if figures.totalChurn == 0 {
            blocks.append("_No subscription churned in this month._")
        } else {
            blocks.append(
                "\(figures.totalChurn) paid subscriptions ended: **\(figures.voluntaryChurn) voluntary** (canceled, "
                    + "declined a price increase or refunded), **\(figures.involuntaryChurn) involuntary** "
                    + "(billing failed and did not recover) and \(figures.otherChurn) other (product withdrawn or "
                    + "reason unknown).")
            let reasons = figures.churnByReason.sorted { $0.reason.utf8.lexicographicallyPrecedes($1.reason.utf8) }
            if let pie = MermaidChart.pie(
                title: "Churn reasons", slices: reasons.map { (Vocabulary.churnReason($0.reason), $0.subscriptions) })
            {
                blocks.append(pie)
            }
            if let chart = productChart(month) { blocks.append(chart) }
        }
        blocks.append(
            TableView(
                file: "churn.csv",
                columns: [
                    .init("product_id", "Product"),
                    .init("churn_type", "Churn type"),
                    .init("reason", "Reason", .words(Vocabulary.churnReason)),
                    .init("subscriptions", "Subscriptions", .count),
                ]
            ).render(month, emptyText: "No churn rows."))

        blocks.append("### Expiration intents")
        blocks.append(
            "Apple's own reason code for churn other than refunds, from the subscription's renewal info.")
        blocks.append(
            TableView(
                file: "expiration_intents.csv",
                columns: [
                    .init("product_id", "Product"),
                    .init("expiration_intent", "Expiration intent", .words(Vocabulary.expirationIntent)),
                    .init("subscriptions", "Subscriptions", .count),
                ]
            ).render(month, emptyText: "No expiration intents in this month."))

        blocks.append("### Billing retry")
        blocks.append(billingSummary(figures))
        if let pie = MermaidChart.pie(
            title: "Billing-retry outcomes",
            slices: [
                ("recovered in grace", figures.billingRecoveredInGrace),
                ("recovered after grace", figures.billingRecovered - figures.billingRecoveredInGrace),
                ("expired", figures.billingExpired),
                ("pending", figures.billingPending),
            ])
        {
            blocks.append(pie)
        }
        blocks.append(
            TableView(
                file: "billing_retry.csv",
                columns: [
                    .init("product_id", "Product"),
                    .init("episodes", "Episodes", .count),
                    .init("recovered", "Recovered", .count),
                    .init("recovered_in_grace", "of which in grace", .count),
                    .init("expired", "Expired", .count),
                    .init("pending", "Pending", .count),
                ]
            ).render(month, emptyText: "No billing-retry episodes in this month."))
        return blocks.joined(separator: "\n\n")
    }

    private static func billingSummary(_ figures: MonthFigures) -> String {
        guard figures.billingEpisodes > 0 else {
            return "_No billing-retry episode started in this month._"
        }
        let rate = figures.recoveryRateTenths.map { "**\(ChangeText.percent(tenths: $0)) of resolved episodes recovered** " } ?? ""
        return "\(figures.billingEpisodes) billing-retry episodes (a renewal payment failed): \(rate)"
            + "\(figures.billingRecovered) recovered within 60 days (of which \(figures.billingRecoveredInGrace) inside "
            + "the grace period), \(figures.billingExpired) expired, \(figures.billingPending) still retrying."
    }

    /// Churn per product: the full bar is all churn, the bar drawn over it is the involuntary part.
    /// xychart has no grouped or stacked bars and no legend, so the overlay and the caption do that work.
    private static func productChart(_ month: MonthReport) -> String? {
        var products: [(id: String, total: Int64, involuntary: Int64)] = []
        for row in month.rows("churn.csv") {
            let id = row.text("product_id")
            let count = row.integer("subscriptions")
            let involuntary = row.text("churn_type") == "involuntary" ? count : 0
            if let index = products.firstIndex(where: { $0.id == id }) {
                products[index].total += count
                products[index].involuntary += involuntary
            } else {
                products.append((id, count, involuntary))
            }
        }
        // Biggest first; ties keep the CSV's product order (stable sort), so the chart is the same every run.
        let shown = products.enumerated()
            .sorted {
                $0.element.total != $1.element.total ? $0.element.total > $1.element.total : $0.offset < $1.offset
            }
            .prefix(chartedProducts).map(\.element)
        guard
            let chart = MermaidChart.xyChart(
                title: "Churn by product", categories: shown.map(\.id), yAxis: "Subscriptions",
                series: [
                    .init(kind: .bar, values: shown.map { String($0.total) }),
                    .init(kind: .bar, values: shown.map { String($0.involuntary) }),
                ],
                palette: ["#4e79a7", "#e15759"])
        else { return nil }
        let cut = products.count > shown.count ? " The \(shown.count) products with most churn are drawn." : ""
        return chart + "\n\n_Blue bar: all churned subscriptions of the product; red part: involuntary (billing)._"
            + cut
    }
}
