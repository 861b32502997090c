import IAPFormats
import IAPAnalytics

/// Describes `reports/index.md` and `index.html`: every month linked, the key figures per month, and the trends as
/// charts.
public struct IndexPageRenderer {
    /// Renders the Markdown index of a report set.
    /// - Parameter set: The report set; its months are listed in the given (ascending) order.
    /// - Returns: The Markdown text, ending with a newline.
    public static func render(_ set: ReportSet) -> String {
        MarkdownWriter.render(page(set))
    }

    /// Renders the HTML index of a report set.
    public static func renderHTML(_ set: ReportSet) -> String {
        HTMLWriter.render(page(set))
    }

    static func page(_ set: ReportSet) -> Page {
        var blocks: [Block] = [.paragraph(MonthPageRenderer.runLine(set))]
        // Notes go to the bottom of the index (with data quality); the unchecked-signature warning stays on top.
        if let warning = DataQualitySection.noVerifyWarning(set.dataQuality) { blocks.append(warning) }
        guard !set.months.isEmpty else {
            blocks.append(.aside("No months in this report set."))
            blocks += dataQuality(set)
            return Page(title: "iaplens reports", blocks: blocks, depth: 0)
        }
        let figures = set.months.map(MonthFigures.init)

        blocks.append(.heading(level: 2, "Months", anchor: "months"))
        blocks.append(.paragraph(Text.joined(set.months.map(monthLink), separator: " · ")))
        blocks.append(.heading(level: 2, "Key figures", anchor: "key-figures"))
        blocks.append(keyFigures(set.months, figures))
        blocks.append(.heading(level: 2, "Trends", anchor: "trends"))
        for chart in TrendCharts.charts(months: set.months.map(\.month), figures: figures) {
            blocks.append(.heading(level: 3, .data(chart.title)))
            blocks.append(.chart(chart))
        }
        blocks += dataQuality(set)
        return Page(title: "iaplens reports", blocks: blocks, depth: 0)
    }

    /// `[2026-10](2026-10/report.md)`, or plain text for a month that is not a valid folder name.
    private static func monthLink(_ month: MonthReport) -> Text {
        guard let parsed = CalendarMonth(month.month) else { return .data(month.month) }
        return .link(.data(parsed.text), to: "\(parsed.text)/report.md")
    }

    private static func keyFigures(_ months: [MonthReport], _ figures: [MonthFigures]) -> Block {
        var table = PageTable(columns: [
            .init("Month"), .init("Sales", .right), .init("Gross", .right), .init("Net revenue", .right),
            .init("Est. proceeds", .right), .init("Apple proceeds", .right),
            .init("Voluntary churn", .right), .init("Involuntary churn", .right),
            .init("Other churn", .right), .init("Refunds", .right), .init("Consumable lost proceeds", .right),
            .init("Billing recovered / episodes", .right), .init("Flagged accounts", .right),
        ])
        // Finance's figures per currency (reconciliation.csv): sales, gross, net of the month's refunds, estimated proceeds.
        func money(_ amounts: CurrencyAmounts) -> Text {
            let texts = amounts.entries.map { Text.money($0.milli, currency: $0.currency) }
            return texts.isEmpty ? "—" : Text.joined(texts, separator: ", ")
        }
        for (month, figure) in zip(months, figures) {
            let recovery = figure.recoveryRateTenths.map { " (\(ChangeText.percent(tenths: $0)))" } ?? ""
            table.rows.append([
                monthLink(month),
                .data(String(figure.sales)),
                money(figure.grossByCurrency),
                money(figure.netByCurrency),
                money(figure.proceedsByCurrency),
                figure.hasAppleReport ? money(figure.appleProceedsByCurrency) : "no report",
                .data(String(figure.voluntaryChurn)),
                .data(String(figure.involuntaryChurn)),
                .data(String(figure.otherChurn)),
                .data(String(figure.refunds)),
                money(figure.consumableLostProceeds),
                .data("\(figure.billingRecovered) / \(figure.billingEpisodes)\(recovery)"),
                .data(String(figure.flaggedAccounts)),
            ])
        }
        return .table(table)
    }

    private static func dataQuality(_ set: ReportSet) -> [Block] {
        var blocks: [Block] = []
        if !set.notes.isEmpty {
            blocks.append(.heading(level: 2, "Notes", anchor: "notes"))
            blocks.append(.list(set.notes.map(Text.data)))
        }
        return blocks + [.heading(level: 2, "Data quality", anchor: "data-quality")] + DataQualitySection.render(set.dataQuality)
    }
}
