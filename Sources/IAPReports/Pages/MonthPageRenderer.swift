import IAPAnalytics

/// Renders `reports/<YYYY-MM>/report.md`: one page per month for finance, trust-and-safety and product.
///
/// The page is built from the same ``ReportTable``s as the CSV files, so the two never disagree; the CSV files stay
/// authoritative (exact milliunits, every row). Every piece of data is escaped on its way into the page.
public struct MonthPageRenderer {
    /// Renders one month's page.
    /// - Parameters:
    ///   - month: The month to render.
    ///   - previous: The month to compare the headlines with (normally the calendar month before); nil for none.
    ///   - set: The report set, for run metadata, notes and data quality.
    /// - Returns: The Markdown text, ending with a newline.
    public static func render(month: MonthReport, previous: MonthReport?, set: ReportSet) -> String {
        var blocks = [
            "# iaplens report — " + Markdown(text: month.month).source,
            runLine(set) + " · [all months](../index.md)",
        ]
        blocks += callouts(set)

        let figures = MonthFigures(month)
        let hasFlags = !month.rows("flagged_accounts.csv").isEmpty
        if month.isEmpty {
            blocks.append(
                "**No counted activity in this month**: no sales, refunds, churn, billing retries or order lookups. "
                    + "The CSV files next to this page hold their header row only"
                    + (hasFlags ? ", except the accounts still flagged from earlier months." : "."))
            if hasFlags {
                blocks.append("## Trust and safety")
                blocks.append(TrustSafetySection.render(month: month, rules: set.flagRules))
            }
        } else {
            blocks.append(
                "Sections: [Headlines](#headlines) · [Finance](#finance) · [Product](#product) · "
                    + "[Trust and safety](#trust-and-safety) · [Data quality](#data-quality). "
                    + "The CSV files next to this page are authoritative; amounts here are rounded to cents.")
            blocks.append("## Headlines")
            blocks.append(
                HeadlineSection.render(
                    month: month.month, current: figures, previousMonth: previous?.month,
                    previous: previous.map(MonthFigures.init)))
            blocks.append("## Finance")
            blocks.append(FinanceSection.render(month: month, set: set))
            blocks.append("## Product")
            blocks.append(ProductSection.render(month: month, figures: figures))
            blocks.append("## Trust and safety")
            blocks.append(TrustSafetySection.render(month: month, rules: set.flagRules))
        }
        blocks.append("## Data quality")
        blocks.append("_For the whole store, not only this month._")
        blocks.append(DataQualitySection.render(set.dataQuality))
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// `Bundle … · Production · as of … · small-business rate off`.
    static func runLine(_ set: ReportSet) -> String {
        "Bundle " + Markdown(text: set.bundleId).source + " · " + Markdown(text: set.environment).source
            + " · as of " + UTCTimestamp.iso8601(unixMilliseconds: set.asOf)
            + " · small-business rate " + (set.smallBusiness ? "on (85 %)" : "off")
    }

    /// The notes every reader must see, and the `--no-verify` warning, as block quotes near the top.
    static func callouts(_ set: ReportSet) -> [String] {
        var blocks: [String] = []
        if !set.notes.isEmpty {
            blocks.append(set.notes.map { "> **Note:** " + Markdown(text: $0).source }.joined(separator: "\n>\n"))
        }
        if let warning = DataQualitySection.noVerifyWarning(set.dataQuality) { blocks.append(warning) }
        return blocks
    }
}
