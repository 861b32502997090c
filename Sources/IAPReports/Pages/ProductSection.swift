import IAPAnalytics

/// The **Product** section: churn (voluntary against involuntary, reasons), expiration intents, billing retry.
enum ProductSection {
    /// Products drawn in the churn chart; the rest are in the table and CSV.
    static let chartedProducts = 12

    /// The section's blocks (sub-headings included, the `Product` heading not).
    /// - Parameter converted: the month's money in the reporting currency, for its MRR (nil: none in effect).
    static func render(
        month: MonthReport, figures: MonthFigures, isProvisional: Bool = false, converted: ConvertedMoney? = nil
    ) -> [Block] {
        var blocks = SubscribersSection.render(month: month, figures: figures, isProvisional: isProvisional)
        blocks += RevenueAndCountriesSection.render(month: month, converted: converted, plans: figures.planLengths)
        blocks.append(.heading(level: 3, "Churn"))
        if figures.totalChurn == 0 {
            blocks.append(.aside("No subscription churned in this month."))
        } else {
            blocks.append(
                .paragraph(
                    "\(figures.totalChurn) paid subscriptions ended: \(strong: "\(figures.voluntaryChurn) voluntary") "
                        + "(canceled, declined a price increase or refunded), "
                        + "\(strong: "\(figures.involuntaryChurn) involuntary") (billing failed and did not recover) and "
                        + "\(figures.otherChurn) other (product withdrawn or reason unknown)."))
            let reasons = figures.churnByReason.sorted { $0.reason.utf8.lexicographicallyPrecedes($1.reason.utf8) }
            blocks.append(
                .chart(
                    ChartSpec(
                        name: "churn-reasons", title: "Churn reasons",
                        caption: "Subscriptions that ended in \(month.month), by reason.",
                        body: .categorical(
                            .init(
                                kind: .groupedColumns, categories: reasons.map { Vocabulary.churnReason($0.reason) },
                                series: [.init(name: "Subscriptions", values: reasons.map(\.subscriptions))],
                                unit: .count, axisTitle: "Subscriptions")))))
            blocks.append(productChart(month))
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

        blocks.append(.heading(level: 3, "Expiration intents"))
        blocks.append(
            .paragraph("Apple's own reason code for churn other than refunds, from the subscription's renewal info."))
        blocks.append(
            TableView(
                file: "expiration_intents.csv",
                columns: [
                    .init("product_id", "Product"),
                    .init("expiration_intent", "Expiration intent", .words(Vocabulary.expirationIntent)),
                    .init("subscriptions", "Subscriptions", .count),
                ]
            ).render(month, emptyText: "No expiration intents in this month."))

        blocks.append(.heading(level: 3, "Billing retry"))
        blocks.append(billingSummary(figures))
        if figures.billingEpisodes > 0 {
            let outcomes: [(String, Int64)] = [
                ("recovered in grace", figures.billingRecoveredInGrace),
                ("recovered after grace", figures.billingRecovered - figures.billingRecoveredInGrace),
                ("expired", figures.billingExpired),
                ("pending", figures.billingPending),
            ]
            blocks.append(
                .chart(
                    ChartSpec(
                        name: "billing-outcomes", title: "Billing-retry outcomes",
                        caption: "Billing-retry episodes that started in \(month.month), by what became of them.",
                        body: .categorical(
                            .init(
                                kind: .groupedColumns, categories: outcomes.map(\.0),
                                series: [.init(name: "Episodes", values: outcomes.map(\.1))], unit: .count,
                                axisTitle: "Episodes")))))
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
        return blocks
    }

    private static func billingSummary(_ figures: MonthFigures) -> Block {
        guard figures.billingEpisodes > 0 else {
            return .aside("No billing-retry episode started in this month.")
        }
        let rate: Text =
            figures.recoveryRateTenths.map {
                "\(strong: .prose("\(ChangeText.percent(tenths: $0)) of resolved episodes recovered")) "
            } ?? Text()
        return .paragraph(
            "\(figures.billingEpisodes) billing-retry episodes (a renewal payment failed): " + rate
                + "\(figures.billingRecovered) recovered within \(BusinessRules.billingRetryWindowDays) days (of which \(figures.billingRecoveredInGrace) "
                + "inside the grace period), \(figures.billingExpired) expired, \(figures.billingPending) still retrying."
        )
    }

    /// Churn per product, voluntary, involuntary and other stacked, the products with most churn first.
    private static func productChart(_ month: MonthReport) -> Block {
        var products: [(id: String, voluntary: Int64, involuntary: Int64, other: Int64)] = []
        for row in month.rows("churn.csv") {
            let id = row.text("product_id")
            let count = row.integer("subscriptions")
            let type = row.text("churn_type")
            let index =
                products.firstIndex { $0.id == id }
                ?? {
                    products.append((id, 0, 0, 0))
                    return products.count - 1
                }()
            switch type {
            case "voluntary": products[index].voluntary &+= count
            case "involuntary": products[index].involuntary &+= count
            default: products[index].other &+= count
            }
        }
        // Biggest first; ties keep the CSV's product order (stable sort), so the chart is the same every run.
        let total = { (p: (id: String, voluntary: Int64, involuntary: Int64, other: Int64)) in
            p.voluntary &+ p.involuntary &+ p.other
        }
        let shown = products.enumerated()
            .sorted {
                total($0.element) != total($1.element) ? total($0.element) > total($1.element) : $0.offset < $1.offset
            }
            .prefix(chartedProducts).map(\.element)
        let cut: Text =
            products.count > shown.count ? " The \(shown.count) products with most churn are drawn." : Text()
        return .chart(
            ChartSpec(
                name: "churn-by-product", title: "Churn by product",
                caption: "Churned subscriptions per product: voluntary (solid blue), involuntary (striped red-orange, "
                    + "billing) and other (striped green)." + cut,
                body: .categorical(
                    .init(
                        kind: .stackedColumns, categories: shown.map(\.id),
                        series: [
                            .init(name: "Voluntary", values: shown.map(\.voluntary)),
                            .init(name: "Involuntary", values: shown.map(\.involuntary)),
                            .init(name: "Other", values: shown.map(\.other)),
                        ],
                        unit: .count, axisTitle: "Subscriptions"))))
    }
}
