import IAPAnalytics
import IAPFormats

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
        // Notes go to the bottom of the index (with data quality); warnings and the unchecked-signature warning stay
        // on top.
        if let warning = DataQualitySection.noVerifyWarning(set.dataQuality) { blocks.append(warning) }
        if !set.warnings.isEmpty {
            blocks.append(.callout(set.warnings.map { "\(strong: "Warning:") " + .prose($0) }, kind: .warning))
        }
        guard !set.months.isEmpty else {
            blocks.append(.aside(Self.noMonths(set)))
            blocks += dataQuality(set)
            return Page(title: "iaplens reports", blocks: blocks, depth: 0)
        }
        let figures = set.months.map { MonthFigures($0, periods: set.productPeriods) }

        blocks.append(.heading(level: 2, "Months", anchor: "months"))
        // Each month whole: a phone would otherwise break `2025-05` after its dash.
        blocks.append(.paragraph(Text.joined(set.months.map { .unbroken(monthLink($0)) }, separator: " · ")))
        if let first = set.months.first { blocks += BeforeTheArchiveSection.render(set: set, firstMonth: first) }
        blocks.append(.heading(level: 2, "Key figures", anchor: "key-figures"))
        blocks += keyFigures(set.months, figures, set: set)
        blocks += RetentionTriangle.render(set)
        blocks.append(.heading(level: 2, "Trends", anchor: "trends"))
        let provisional = Set(
            set.months.indices.filter { ProvisionalMonth.isProvisional(set.months[$0].month, asOf: set.asOf) })
        let charts = TrendCharts.charts(
            months: set.months.map(\.month), figures: figures, provisional: provisional,
            activeByProduct: activeByProduct(set.months), convertedMRR: convertedMRR(set),
            currencyWeights: set.currencyWeights)
        for chart in charts {
            blocks.append(.heading(level: 3, .data(chart.title)))
            blocks.append(.chart(chart))
        }
        blocks += dataQuality(set)
        return Page(title: "iaplens reports", blocks: blocks, depth: 0)
    }

    /// Why a report set has no month yet, in the words of Documentation/Reports.md "Months written".
    static func noMonths(_ set: ReportSet) -> Text {
        guard set.dataQuality.accepted > 0 else {
            return
                "No months yet: the store holds no accepted document. Ingest the archive's notifications; the months start at the first."
        }
        return
            "No months yet: months start at the month of the first accepted notification with counted activity, and the store holds none (refund-history and order lookups and Apple's files do not start a month)."
    }

    /// Subscriptions active at each month's start for the four products with the most, in byte order of ID.
    static func activeByProduct(_ months: [MonthReport]) -> [(String, [Int64?])] {
        var totals: [String: Int64] = [:]
        var values: [String: [Int64?]] = [:]
        for (index, month) in months.enumerated() {
            for row in month.rows("subscriptions.csv") {
                let product = row.text("product_id")
                totals[product, default: 0] += row.integer("active_start")
                values[product, default: Array(repeating: 0, count: months.count)][index] = row.integer("active_start")
            }
        }
        let top = totals.filter { $0.value > 0 }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            .prefix(4).map(\.key).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return top.map { ($0, values[$0] ?? []) }
    }

    /// " (27 of 31 days)" when Apple's reports cover only part of the month: Apple's figure is then for those days
    /// alone, not comparable with a whole month's estimate; empty when they cover all of it.
    static func partialCoverage(_ month: String, _ set: ReportSet) -> Text {
        guard let parsed = CalendarMonth(month) else { return Text() }
        let days = CivilCalendar.daysInMonth(year: Int64(parsed.year), month: Int64(parsed.month))
        let covered = set.archiveMonth(month).appleDaysCovered
        return covered > 0 && covered < days ? .prose(" (\(covered) of \(days) days)") : Text()
    }

    /// `[2026-10](2026-10/report.md)`, or plain text for a month that is not a valid folder name.
    private static func monthLink(_ month: MonthReport) -> Text {
        guard let parsed = CalendarMonth(month.month) else { return .data(month.month) }
        return .link(.data(parsed.text), to: "\(parsed.text)/report.md")
    }

    /// Two tables, so each fits a page: finance's figures per currency, then product's and trust and safety's.
    private static func keyFigures(_ months: [MonthReport], _ figures: [MonthFigures], set: ReportSet) -> [Block] {
        let asOf = set.asOf
        func money(_ amounts: CurrencyAmounts) -> Text {
            let texts = amounts.entries.map { Text.money($0.milli, currency: $0.currency) }
            return texts.isEmpty ? "—" : Text.joined(texts, separator: ", ")
        }
        // Sales without a price add nothing to the amounts beside them, so the count says how many there are.
        func sales(_ figure: MonthFigures) -> Text {
            guard figure.unpricedSales > 0 else { return .count(figure.sales) }
            return .count(figure.sales) + " " + .unbroken(.data("(\(CountText.count(figure.unpricedSales)) unpriced)"))
        }
        func monthCell(_ month: MonthReport) -> Text {
            ProvisionalMonth.isProvisional(month.month, asOf: asOf)
                ? monthLink(month) + " " + .emphasis("provisional") : monthLink(month)
        }
        var finance = PageTable(columns: [
            .init("Month"), .init("Sales", .right), .init("Gross", .right), .init("Net revenue", .right),
            .init("Est. proceeds", .right), .init("Apple proceeds", .right),
        ])
        // Finance's figures per currency (reconciliation.csv, apple_reconciliation.csv).
        for (month, figure) in zip(months, figures) {
            finance.rows.append([
                monthCell(month), sales(figure), money(figure.grossByCurrency), money(figure.netByCurrency),
                money(figure.proceedsByCurrency),
                figure.hasAppleReport
                    ? money(figure.appleProceedsByCurrency) + partialCoverage(month.month, set) : "no report",
            ])
        }
        var product = PageTable(columns: [
            .init("Month"), .init("Active at start", .right), .init("Churn rate, voluntary", .right),
            .init("Churn rate, involuntary", .right), .init("Other churn", .right), .init("Trial conversion", .right),
            .init("Billing retry", .right), .init("Refunds", .right), .init("Consumable lost proceeds", .right),
            .init("Flagged accounts", .right),
        ])
        for (month, figure) in zip(months, figures) {
            let billing = figure.billingEpisodes == 0 ? "no episodes" : figure.billingOutcomes
            // Each rate per plan length where the month's products have more than one (MonthFigures.rateScopes).
            func rate(_ part: (PlanLengthFigures) -> Int64, of whole: (PlanLengthFigures) -> Int64) -> Text {
                Text.joined(
                    figure.rateScopes.map { scope in
                        let plan = figure.plan(scope)
                        return .unbroken(
                            .data((scope.map { $0 + " " } ?? "") + SubscribersSection.rate(part(plan), of: whole(plan)))
                        )
                    },
                    separator: "; ")
            }
            product.rows.append([
                monthCell(month), .count(figure.activeStart),
                rate(\.voluntaryChurn, of: \.activeStart),
                rate(\.involuntaryChurn, of: \.activeStart),
                .count(figure.otherChurn),
                rate(\.trialsConverted, of: \.trialsEnded),
                .data(billing), .count(figure.refunds), money(figure.consumableLostProceeds),
                .count(figure.flaggedAccounts),
            ])
        }
        var blocks: [Block] = [
            .heading(level: 3, "Finance", anchor: "key-finance"), .table(finance),
            .heading(level: 3, "Product, trust and safety", anchor: "key-product"), .table(product),
        ]
        if let first = months.first(where: { ProvisionalMonth.isProvisional($0.month, asOf: asOf) }) {
            blocks.append(
                .aside(
                    "Months from \(first.month) on are " + .strong("provisional")
                        + ": the data end less than \(BusinessRules.billingRetryWindowDays) days after "
                        + "they ended, so billing episodes may still recover and churn may still appear."))
        }
        return blocks
    }

    private static func dataQuality(_ set: ReportSet) -> [Block] {
        var blocks: [Block] = []
        let notes = set.notes.filter { !set.warnings.contains($0) }
        if !notes.isEmpty {
            blocks.append(.heading(level: 2, "Notes", anchor: "notes"))
            blocks.append(.list(notes.map(Text.prose)))
        }
        return blocks + [.heading(level: 2, "Data quality", anchor: "data-quality")]
            + DataQualitySection.render(set.dataQuality)
    }

    /// Each month's MRR in the reporting currency, when one is in effect and any month has MRR.
    static func convertedMRR(_ set: ReportSet) -> (currency: String, values: [Int64?])? {
        let values = set.months.map { set.converted[$0.month]?.mrrMilli }
        guard let currency = set.converted.values.first?.currency, values.contains(where: { $0 != nil }) else {
            return nil
        }
        return (currency, values)
    }
}
