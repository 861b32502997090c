import IAPAnalytics

/// The month's money in one reporting currency, in the finance section (Documentation/Reports.md
/// "apple_payments.csv", `--reporting-currency`): gross, refunds, Apple's proceeds and the archive's estimate, with the
/// rates they used and the currencies left unconverted.
enum ReportingCurrencySection {
    static func render(month: MonthReport, set: ReportSet) -> [Block] {
        guard let money = set.converted[month.month] else { return [] }
        let cur = money.currency
        if money.convertsNothing {
            // Sums of nothing would read as "gross 0.00 EUR": say instead that no figure could be converted.
            return [.paragraph("\(strong: .prose("In \(cur)")): nothing converts, for want of a paid rate: "
                + .data(money.unconverted.sorted().joined(separator: ", ")) + ".")]
        }
        var text: Text = "\(strong: .prose("In \(cur)")): gross " + .money(money.grossMilli, currency: cur) + ", refunds "
            + .money(money.refundedMilli, currency: cur) + ", Apple's proceeds " + .money(money.appleProceedsMilli, currency: cur)
            + ", the archive's estimated proceeds " + .money(money.estimatedProceedsMilli, currency: cur)
            + ", each day at the rate of Apple's paid fiscal month that holds it (a day of a month not yet paid at the latest paid rate)."
        if !money.ratesUsed.isEmpty {
            text += " Rates used: " + .data(money.ratesUsed.sorted().joined(separator: "; ")) + "."
        }
        if !money.unconverted.isEmpty {
            text += " Not converted, for want of a paid rate: " + .data(money.unconverted.sorted().joined(separator: ", ")) + "."
        }
        return [.paragraph(text)]
    }
}
