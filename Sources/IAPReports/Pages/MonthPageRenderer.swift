import IAPAnalytics

/// Describes one month's page for finance, trust-and-safety and product: `reports/<YYYY-MM>/report.md` and
/// `report.html` are written from the same blocks.
///
/// The page is built from the same ``ReportTable``s as the CSV files, so the two never disagree; the CSV files stay
/// authoritative (exact milliunits, every row). Every piece of data enters as ``Text/Span/data(_:)``.
public struct MonthPageRenderer {
    /// Which page is being described: the Markdown page shows each flagged account's evidence under the table, the
    /// HTML page links each account to its case page.
    enum Format {
        case markdown
        case html
    }

    /// Renders one month's Markdown page.
    /// - Parameters:
    ///   - month: The month to render.
    ///   - previous: The month to compare the headlines with (normally the calendar month before); nil for none.
    ///   - set: The report set, for run metadata, notes and data quality.
    /// - Returns: The Markdown text, ending with a newline.
    public static func render(month: MonthReport, previous: MonthReport?, set: ReportSet) -> String {
        MarkdownWriter.render(page(month: month, previous: previous, set: set, format: .markdown))
    }

    /// Renders one month's HTML page.
    public static func renderHTML(month: MonthReport, previous: MonthReport?, set: ReportSet) -> String {
        HTMLWriter.render(page(month: month, previous: previous, set: set, format: .html))
    }

    /// The note on every page of a provisional month (Documentation/Reports.md "Provisional months").
    static let provisionalCallout = Block.callout(
        [
            "\(strong: "Provisional month.") The data end less than \(BusinessRules.billingRetryWindowDays) days after this month ended: billing episodes "
                + "may still recover and churn inferred from silence may still appear. No change is computed from it."
        ],
        kind: .note)

    static func page(month: MonthReport, previous: MonthReport?, set: ReportSet, format: Format) -> Page {
        var blocks: [Block] = [.paragraph(runLine(set) + " · \(link: "all months", to: "../index.md")")]
        blocks += callouts(set)

        let figures = MonthFigures(month, periods: set.productPeriods)
        let isProvisional = ProvisionalMonth.isProvisional(month.month, asOf: set.asOf)
        let previousIsProvisional = previous.map { ProvisionalMonth.isProvisional($0.month, asOf: set.asOf) } ?? false
        if isProvisional { blocks.append(provisionalCallout) }
        blocks += BeforeTheArchiveSection.render(set: set, firstMonth: month)
        let hasFlags = !month.rows("flagged_accounts.csv").isEmpty
        let trust = {
            TrustSafetySection.render(month: month, rules: set.flagRules, details: format == .markdown, set: set)
        }
        if month.isEmpty {
            blocks.append(
                .paragraph(
                    "\(strong: "No counted activity in this month"): no sales, refunds, churn, expirations or billing "
                        + "retries. The CSV files next to this page hold their header row only"
                        + (hasFlags ? ", except the accounts still flagged from earlier months." : ".")))
            if hasFlags {
                blocks.append(.heading(level: 2, "Trust and safety", anchor: "trust-and-safety"))
                blocks += trust()
            }
        } else {
            blocks.append(
                .paragraph(
                    "Sections: \(link: "Headlines", to: "#headlines") · \(link: "Finance", to: "#finance") · "
                        + "\(link: "Product", to: "#product") · \(link: "Trust and safety", to: "#trust-and-safety") · "
                        + "\(link: "Data quality", to: "#data-quality"). The CSV files next to this page are "
                        + "authoritative; amounts here are rounded to the currency's smallest unit."))
            blocks.append(.heading(level: 2, "Headlines", anchor: "headlines"))
            blocks += HeadlineSection.render(
                month: month.month, current: figures, previousMonth: previous?.month,
                previous: previous.map { MonthFigures($0, periods: set.productPeriods) },
                provisional: isProvisional ? month.month : previousIsProvisional ? previous?.month : nil)
            if let coverage = HeadlineSection.coverage(set.archiveMonth(month.month)) {
                blocks.append(coverage)
            }
            blocks.append(.heading(level: 2, "Finance", anchor: "finance"))
            blocks += FinanceSection.render(month: month, set: set)
            blocks.append(.heading(level: 2, "Product", anchor: "product"))
            blocks += ProductSection.render(
                month: month, figures: figures, isProvisional: isProvisional, converted: set.converted[month.month])
            blocks.append(.heading(level: 2, "Trust and safety", anchor: "trust-and-safety"))
            blocks += trust()
        }
        blocks.append(.heading(level: 2, "Data quality", anchor: "data-quality"))
        blocks.append(.aside("For the whole store, not only this month."))
        blocks += DataQualitySection.render(set.dataQuality)
        return Page(title: "iaplens report — \(month.month)", blocks: blocks, depth: 1)
    }

    /// `Bundle … · Production · as of … · small-business rate off`.
    static func runLine(_ set: ReportSet) -> Text {
        // Without an accepted document there is no as-of time: 0 stands for none, not for 1970.
        let asOf =
            set.asOf == 0 && set.dataQuality.accepted == 0
            ? "— (no accepted document)" : UTCTimestamp.iso8601(unixMilliseconds: set.asOf)
        return "Bundle \(set.bundleId) · \(set.environment) · as of " + .prose(asOf) + " · small-business rate "
            + (set.smallBusiness ? "on (\(BusinessRules.reducedProceedsPercent) %)" : "off")
    }

    /// The notes every reader must see, and the `--no-verify` warning, near the top.
    static func callouts(_ set: ReportSet) -> [Block] {
        var blocks: [Block] = []
        if !set.notes.isEmpty {
            // Our own sentences (with counts, codes and options in them): prose, so that none is cut before its remedy.
            blocks.append(.callout(set.notes.map { "\(strong: "Note:") " + .prose($0) }, kind: .note))
        }
        if let warning = DataQualitySection.noVerifyWarning(set.dataQuality) { blocks.append(warning) }
        return blocks
    }
}
