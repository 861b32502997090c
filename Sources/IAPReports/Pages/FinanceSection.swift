import IAPAnalytics

/// The **Finance** section: reconciliation per currency, by product type, and refunds.
enum FinanceSection {
    /// The section's blocks (sub-headings included, the `Finance` heading not).
    static func render(month: MonthReport, set: ReportSet) -> [Block] {
        var blocks: [Block] = []
        let rate: Text =
            set.smallBusiness
            ? "\(BusinessRules.reducedProceedsPercent) % (Small Business Program)"
            : "\(BusinessRules.standardProceedsPercent) %, or \(BusinessRules.reducedProceedsPercent) % for subscription renewals a year or more after the first purchase"
        blocks.append(
            .paragraph(
                "Estimated proceeds are an \(strong: "estimate"): taxes are not modelled and the proceeds rate is "
                    + rate + ". Apple's financial reports are the record. Amounts here are rounded to the "
                    + "currency's smallest unit; the \(code: "_milli") columns of "
                    + "\(link: .data("reconciliation.csv"), to: "reconciliation.csv") are exact and authoritative."))

        blocks.append(.heading(level: 3, "Per currency"))
        blocks.append(currencyTotals(month))

        blocks.append(.heading(level: 3, "By product type"))
        blocks.append(
            TableView(
                file: "reconciliation.csv",
                columns: [
                    .init("currency", "Currency"),
                    .init("product_type", "Product type", .words(Vocabulary.productType)),
                    .init("sales", "Sales", .count),
                    .init("gross_milli", "Gross", .money),
                    .init("refunds", "Refunds", .count),
                    .init("refunded_milli", "Refunded", .money),
                    .init("net_milli", "Net", .money),
                    .init("est_proceeds_milli", "Est. proceeds", .money),
                    .init("prior_period_refunds", "Prior-period refunds", .count),
                    .init("prior_period_refunded_milli", "Prior-period refunded", .money),
                    .init("unpriced", "Unpriced", .count),
                ]
            ).render(month, emptyText: "No sales or refunds in this month."))
        blocks.append(
            .paragraph(
                "\(em: "Prior-period refunds") were purchased in an earlier month: the gap between what was booked then "
                    + "and what the App Store pays now. Currency \(code: "XXX") holds unpriced transactions (no catalog "
                    + "price): they are counted but add nothing to the amounts."))

        blocks += ReportingCurrencySection.render(month: month, set: set)
        blocks += AppleReconciliationSection.render(month: month, set: set)
        blocks += ApplePaymentSection.render(month: month)

        blocks.append(.heading(level: 3, "Refunds"))
        blocks.append(
            TableView(
                file: "refunds.csv",
                columns: [
                    .init("product_type", "Product type", .words(Vocabulary.productType)),
                    .init("product_id", "Product"),
                    .init("currency", "Currency"),
                    .init("refunds", "Refunds", .count),
                    .init("refunded_gross_milli", "Refunded", .money),
                    .init("from_notifications", "Reported by notification", .count),
                    .init("from_lookups_only", "Found by lookups only", .count),
                    .init("unpriced", "Unpriced", .count),
                ]
            ).render(month, emptyText: "No refunds in this month."))
        return blocks
    }

    /// One row per currency: the figures finance books, summed over product types.
    private static func currencyTotals(_ month: MonthReport) -> Block {
        let rows = month.rows("reconciliation.csv")
        guard !rows.isEmpty else { return .aside("No sales or refunds in this month.") }
        let moneyColumns = [
            "gross_milli", "refunded_milli", "net_milli", "est_proceeds_milli", "prior_period_refunded_milli",
        ]
        let countColumns = ["sales", "refunds", "prior_period_refunds"]
        var money = moneyColumns.map { _ in CurrencyAmounts() }
        var counts = countColumns.map { _ in CurrencyAmounts() }
        for row in rows {
            let currency = row.text("currency")
            for (index, column) in moneyColumns.enumerated() {
                money[index].add(row.integer(column), currency: currency)
            }
            for (index, column) in countColumns.enumerated() {
                counts[index].add(row.integer(column), currency: currency)
            }
        }
        var table = PageTable(columns: [
            .init("Currency"), .init("Sales", .right), .init("Gross", .right), .init("Refunds", .right),
            .init("Refunded", .right), .init("Net", .right), .init("Est. proceeds", .right),
            .init("Prior-period refunds", .right), .init("Prior-period refunded", .right),
        ])
        for currency in money[0].currencies {
            let amount = { (index: Int) in Text.money(money[index][currency], currency: currency) }
            let count = { (index: Int) in Text.count(counts[index][currency]) }
            table.rows.append([
                .data(currency), count(0), amount(0), count(1), amount(1), amount(2), amount(3), count(2), amount(4),
            ])
        }
        return .table(table)
    }
}
