import IAPFormats
import IAPAnalytics

/// Renders `reports/index.md`: every month linked, the key figures per month, and the trends as Mermaid charts.
public struct IndexPageRenderer {
    /// Renders the index of a report set.
    /// - Parameter set: The report set; its months are listed in the given (ascending) order.
    /// - Returns: The Markdown text, ending with a newline.
    public static func render(_ set: ReportSet) -> String {
        var blocks = ["# iaplens reports", MonthPageRenderer.runLine(set)]
        // Notes go to the bottom of the index (with data quality); the unchecked-signature warning stays on top.
        if let warning = DataQualitySection.noVerifyWarning(set.dataQuality) { blocks.append(warning) }
        guard !set.months.isEmpty else {
            blocks.append("_No months in this report set._")
            blocks += dataQuality(set)
            return blocks.joined(separator: "\n\n") + "\n"
        }
        let figures = set.months.map(MonthFigures.init)
        let months = set.months.map(\.month)

        blocks.append("## Months")
        blocks.append(set.months.map(monthLink).joined(separator: " · "))
        blocks.append("## Key figures")
        blocks.append(keyFigures(set.months, figures))
        blocks.append("## Trends")
        blocks += trendCharts(months: months, figures: figures)
        blocks += dataQuality(set)
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// `[2026-10](2026-10/report.md)`, or plain text for a month that is not a valid folder name.
    private static func monthLink(_ month: MonthReport) -> String {
        guard let parsed = CalendarMonth(month.month) else { return Markdown(text: month.month).source }
        return "[\(parsed.text)](\(parsed.text)/report.md)"
    }

    private static func keyFigures(_ months: [MonthReport], _ figures: [MonthFigures]) -> String {
        var table = MarkdownTable(columns: [
            .init("Month"), .init("Sales", .right), .init("Net revenue", .right), .init("Est. proceeds", .right),
            .init("Voluntary churn", .right), .init("Involuntary churn", .right),
            .init("Other churn", .right), .init("Refunds", .right), .init("Consumable lost proceeds", .right),
            .init("Billing recovered / episodes", .right), .init("Flagged accounts", .right),
        ])
        // Finance's figures per currency (reconciliation.csv): sales, net of the month's refunds, estimated proceeds.
        func money(_ amounts: CurrencyAmounts) -> Markdown {
            let texts = amounts.entries.map { MoneyText.amount($0.milli, currency: $0.currency) }
            return texts.isEmpty ? "—" : Markdown.joined(texts.map { Markdown(text: $0) }, separator: ", ")
        }
        for (month, figure) in zip(months, figures) {
            let lost = figure.consumableLostProceeds.entries.map { MoneyText.amount($0.milli, currency: $0.currency) }
            let recovery = figure.recoveryRateTenths.map { " (\(ChangeText.percent(tenths: $0)))" } ?? ""
            table.rows.append([
                Markdown(markup: monthLink(month)),
                Markdown(text: String(figure.sales)),
                money(figure.netByCurrency),
                money(figure.proceedsByCurrency),
                Markdown(text: String(figure.voluntaryChurn)),
                Markdown(text: String(figure.involuntaryChurn)),
                Markdown(text: String(figure.otherChurn)),
                Markdown(text: String(figure.refunds)),
                lost.isEmpty ? "—" : Markdown.joined(lost.map { Markdown(text: $0) }, separator: ", "),
                Markdown(text: "\(figure.billingRecovered) / \(figure.billingEpisodes)\(recovery)"),
                Markdown(text: String(figure.flaggedAccounts)),
            ])
        }
        return table.render(limit: Int.max)
    }

    /// Most currencies charted for consumable losses; the table lists them all.
    static let chartedCurrencies = 4

    private static func trendCharts(months: [String], figures: [MonthFigures]) -> [String] {
        var blocks: [String] = []
        func chart(
            _ title: String, _ yAxis: String, _ series: [MermaidChart.Series], _ palette: [String], _ caption: String
        ) {
            guard
                let text = MermaidChart.xyChart(
                    title: title, categories: months, yAxis: yAxis, series: series, palette: palette)
            else { return }
            blocks.append("### " + Markdown(text: title).source)
            blocks.append(text)
            blocks.append("_" + caption + "_")
        }
        let counts = { (value: (MonthFigures) -> Int64) in figures.map { String(value($0)) } }
        chart(
            "Churn", "Subscriptions",
            [
                .init(kind: .line, values: counts(\.voluntaryChurn)),
                .init(kind: .line, values: counts(\.involuntaryChurn)),
            ],
            ["#4e79a7", "#e15759"], "Blue line: voluntary churn; red line: involuntary churn (billing).")
        chart(
            "Refunds", "Refunds", [.init(kind: .bar, values: counts(\.refunds))], ["#f28e2b"],
            "Refunds by month of the refund date, all product types.")
        // Largest total loss first, ties in currency byte order, so the same currencies are charted every run.
        var totals = CurrencyAmounts()
        for figure in figures {
            for entry in figure.consumableLostProceeds.entries { totals.add(entry.milli, currency: entry.currency) }
        }
        let currencies = totals.entries.enumerated()
            .sorted {
                $0.element.milli != $1.element.milli ? $0.element.milli > $1.element.milli : $0.offset < $1.offset
            }
            .prefix(chartedCurrencies).map(\.element.currency)
        for currency in currencies {
            chart(
                "Consumable lost proceeds " + currency, currency,
                [.init(kind: .bar, values: figures.map { MoneyText.chartValue($0.consumableLostProceeds[currency]) })],
                ["#b07aa1"],
                "Estimated proceeds lost to consumable refunds, in " + Markdown(text: currency).source + ".")
        }
        chart(
            "Billing recovery", "Episodes",
            [
                .init(kind: .bar, values: counts(\.billingEpisodes)),
                .init(kind: .bar, values: counts(\.billingRecovered)),
            ],
            ["#bab0ac", "#59a14f"],
            "Grey bar: billing-retry episodes started; green part: recovered within 60 days.")
        return blocks
    }

    private static func dataQuality(_ set: ReportSet) -> [String] {
        var blocks: [String] = []
        if !set.notes.isEmpty {
            blocks.append("## Notes")
            blocks.append(set.notes.map { "- " + Markdown(lineStart: $0).source }.joined(separator: "\n"))
        }
        return blocks + ["## Data quality", DataQualitySection.render(set.dataQuality)]
    }
}
