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
            return [
                .paragraph(
                    "\(strong: .prose("In \(cur)")): nothing converts, for want of a paid rate: "
                        + .data(money.unconverted.sorted().joined(separator: ", ")) + ".")
            ]
        }
        var text: Text =
            "\(strong: .prose("In \(cur)")): gross " + .money(money.grossMilli, currency: cur) + ", refunds "
            + .money(money.refundedMilli, currency: cur) + ", Apple's proceeds "
            + .money(money.appleProceedsMilli, currency: cur)
            + ", the archive's estimated proceeds " + .money(money.estimatedProceedsMilli, currency: cur)
            + ", each day at the rate of Apple's paid fiscal month that holds it (a day of a month not yet paid at the latest paid rate)."
        if !money.ratesUsed.isEmpty {
            text += " Rates used: " + .data(money.ratesUsed.sorted().joined(separator: "; ")) + "."
            text += throughSentence(money)
        }
        if !money.unconverted.isEmpty {
            text +=
                " Not converted, for want of a paid rate: " + .data(money.unconverted.sorted().joined(separator: ", "))
                + "."
        }
        return [.paragraph(text)]
    }

    /// When the reporting currency is not the bank's: what Apple's rates are into, and how the reporting currency's
    /// own rate enters; empty otherwise.
    static func throughSentence(_ money: ConvertedMoney) -> Text {
        guard let bank = money.through else { return "" }
        return " Apple's rates are into \(bank), the bank's currency: an amount is converted into \(bank) at its own "
            + "currency's rate, then divided by the rate of \(money.currency)."
    }
}
