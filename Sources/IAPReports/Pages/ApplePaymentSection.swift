import IAPAnalytics
import IAPFinanceFiles
import IAPFormats

/// "Apple's payment", in the finance section of the fiscal month's page: Apple's books against Apple's payment region
/// by region, taxes and adjustments named, the rate, the proceeds in the bank's currency, the deposit per bank
/// currency, held and pending amounts, and what each status other than `paid` means and what to do
/// (Documentation/Reports.md "apple_payments.csv").
enum ApplePaymentSection {
    static let file = "apple_payments.csv"

    static func render(month: MonthReport) -> [Block] {
        var blocks: [Block] = [.heading(level: 3, "Apple's payment for the fiscal month", anchor: "apple-payment")]
        let rows = month.rows(file)
        guard let first = rows.first else {
            blocks.append(
                .paragraph(
                    "No payment summary of fiscal month " + .data(month.month)
                        + " is loaded (or Apple has not published it yet). "
                        + "In App Store Connect, Payments and Financial Reports, choose the month and download its CSV "
                        + "(\(code: "financial_report.csv")); pass it with \(code: "--input") and this section ties Apple's books "
                        + "to the payment, region by region, down to the deposit."))
            return blocks
        }
        var intro: Text = "Fiscal month \(strong: .data(month.month))"
        if !first.text("period_start").isEmpty {
            let days = dayCount(first.text("period_start"), first.text("period_end"))
            intro +=
                " runs " + .data(first.text("period_start")) + " … " + .data(first.text("period_end"))
                + " (\(days) days, Apple's fiscal calendar: it does not follow the calendar month)."
        } else {
            intro += ": no Apple financial report of it is loaded, so Apple's books are not compared."
        }
        blocks.append(.paragraph(intro))
        var table = PageTable(
            columns: [
                .init("Region"), .init("Status"), .init("Units, books / paid", .right), .init("Earned, books", .right),
                .init("Earned, paid", .right), .init("Balance brought", .right), .init("Taxes and adjustments", .right),
                .init("Total owed", .right), .init("Rate"), .init("Proceeds", .right),
            ], limit: 60, fullFile: file)
        var deposit = CurrencyAmounts()
        var held = CurrencyAmounts()
        var pending = CurrencyAmounts()
        for row in rows {
            let currency = row.text("currency")
            let hasPayment = !row.text("payment_units_sold").isEmpty
            let books: Text =
                row.text("apple_units_sold").isEmpty ? .prose("—") : .count(row.integer("apple_units_sold"))
            let taxes =
                row.integer("input_tax_milli") + row.integer("adjustments_milli") + row.integer("withholding_tax_milli")
            table.rows.append([
                .data(row.text("region") + " (" + currency + ")"), .unbroken(.data(status(row.text("status")))),
                .unbroken(books + " / " + (hasPayment ? .count(row.integer("payment_units_sold")) : .prose("—"))),
                row.text("apple_earned_milli").isEmpty
                    ? .prose("—") : .money(row.integer("apple_earned_milli"), currency: currency),
                hasPayment ? .money(row.integer("payment_earned_milli"), currency: currency) : .prose("—"),
                hasPayment ? .money(row.integer("beginning_balance_milli"), currency: currency) : .prose("—"),
                hasPayment ? .money(taxes, currency: currency) : .prose("—"),
                hasPayment ? .money(row.integer("total_owed_milli"), currency: currency) : .prose("—"),
                .data(row.text("exchange_rate")),
                row.text("proceeds_milli").isEmpty
                    ? .prose("—") : .money(row.integer("proceeds_milli"), currency: row.text("bank_currency")),
            ])
            switch row.text("status") {
            case "paid" where !row.text("proceeds_milli").isEmpty, "differs" where !row.text("proceeds_milli").isEmpty:
                deposit.add(row.integer("proceeds_milli"), currency: row.text("bank_currency"))
            case "held": held.add(row.integer("total_owed_milli"), currency: currency)
            case "pending": pending.add(row.integer("total_owed_milli"), currency: currency)
            default: break
            }
        }
        blocks.append(.table(table))
        var totals: [Text] = []
        if !deposit.currencies.isEmpty {
            totals.append(
                "\(strong: "Deposit"): " + amounts(deposit)
                    + ", the proceeds of the paid regions: what reaches the bank.")
        }
        if !held.currencies.isEmpty {
            totals.append(
                "\(strong: "Held"): " + amounts(held)
                    + " below Apple's payment threshold, carried into a later month's balance.")
        }
        if !pending.currencies.isEmpty {
            totals.append("\(strong: "Pending"): " + amounts(pending) + " owed; Apple has not paid this month yet.")
        }
        if !totals.isEmpty { blocks.append(.list(totals)) }
        let present = Set(rows.map { $0.text("status") })
        let advice: [Text] = ["differs", "no_payment", "held", "pending"].filter(present.contains).map { code in
            .unbroken(.data(status(code))) + ": " + .prose(meaning(code))
        }
        if !advice.isEmpty {
            blocks.append(.paragraph("What each status means and what to do:"))
            blocks.append(.list(advice))
        }
        blocks.append(
            .paragraph(
                "Taxes and adjustments are Input Tax + Adjustments + Withholding Tax, as Apple's summary writes them "
                    + "(withholding negative); each column is in \(code: file)."))
        return blocks
    }

    static func status(_ code: String) -> String {
        switch code {
        case "no_payment": "no payment"
        default: code
        }
    }

    static func meaning(_ code: String) -> String {
        switch code {
        case "differs":
            "Apple paid a region whose units or earnings differ from Apple's own report, or that the report lacks. "
                + "Check that the month's financial report is loaded and complete; if it is, ask Apple (App Store Connect, Contact Us, Payments)."
        case "no_payment":
            "Apple's report books earnings in a region the payment summary does not list: load the month's summary, "
                + "or, if it is loaded, the region is owed in a later payment."
        case "held":
            "Below Apple's payment threshold: not paid this month; it returns as a later month's balance brought forward."
        case "pending":
            "Apple has not paid the month yet: load the paid summary when App Store Connect shows it (it replaces this one)."
        default: ""
        }
    }

    private static func amounts(_ sums: CurrencyAmounts) -> Text {
        Text.joined(sums.currencies.map { Text.money(sums[$0], currency: $0) }, separator: ", ")
    }

    /// Days from `first` to `last`, both `YYYY-MM-DD`, inclusive.
    static func dayCount(_ first: String, _ last: String) -> Int {
        guard let start = ReportDay(isoText: first), let end = ReportDay(isoText: last) else { return 0 }
        return end.daysSinceEpoch - start.daysSinceEpoch + 1
    }
}
