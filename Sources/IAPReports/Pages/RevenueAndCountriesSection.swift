import IAPAnalytics

/// In the **Product** section: monthly recurring revenue per currency and product (`mrr.csv`), churn rate and trial
/// conversion per plan length where the products' lengths differ, and the base by storefront (`countries.csv`): the
/// figures a subscription dashboard opens with (Documentation/Reports.md "mrr.csv", "countries.csv").
enum RevenueAndCountriesSection {
    /// Storefronts listed by name; the rest are summed into one row.
    static let listedStorefronts = 10

    /// - Parameters:
    ///   - converted: the month's money in the reporting currency, for its MRR (nil: none in effect).
    ///   - plans: the month's figures per plan length (``MonthFigures/planLengths``).
    static func render(month: MonthReport, converted: ConvertedMoney? = nil, plans: [PlanLengthFigures] = []) -> [Block]
    {
        var blocks: [Block] = [.heading(level: 3, "Monthly recurring revenue", anchor: "mrr")]
        let mrr = month.rows("mrr.csv")
        if mrr.isEmpty {
            blocks.append(.aside("No paid subscription was active at the month's end."))
        } else {
            var totals = CurrencyAmounts()
            for row in mrr { totals.add(row.integer("mrr_milli"), currency: row.text("currency")) }
            blocks.append(
                .paragraph(
                    "At the month's end: "
                        + Text.joined(totals.currencies.map { Text.money(totals[$0], currency: $0) }, separator: ", ")
                        + " a month, each active subscription's current price normalised to a month by its product's period."
                ))
            if let converted, let total = converted.mrrMilli {
                let cur = converted.currency
                var text: Text =
                    "\(strong: .prose("In \(cur)")): " + .money(total, currency: cur)
                    + " a month, each currency at the rate of Apple's paid fiscal month holding the day the base is counted on"
                    + " (a month not yet paid at the latest paid rate)."
                if !converted.mrrRatesUsed.isEmpty {
                    text += " Rates used: " + .data(converted.mrrRatesUsed.sorted().joined(separator: "; ")) + "."
                    text += ReportingCurrencySection.throughSentence(converted)
                }
                if !converted.mrrUnconverted.isEmpty {
                    text +=
                        " Not converted, for want of a paid rate: "
                        + .data(converted.mrrUnconverted.sorted().joined(separator: ", ")) + "."
                }
                blocks.append(.paragraph(text))
            }
            blocks.append(
                TableView(
                    file: "mrr.csv",
                    columns: [
                        .init("product_id", "Product"), .init("currency", "Currency"), .init("period", "Period"),
                        .init("active_end", "Active at end", .count), .init("mrr_milli", "MRR", .money),
                    ]
                ).render(month, emptyText: "No rows."))
            blocks += planLengths(plans)
        }
        blocks.append(.heading(level: 3, "Countries", anchor: "countries"))
        let countries = month.rows("countries.csv")
        guard !countries.isEmpty else {
            blocks.append(.aside("Nothing to count by storefront in this month."))
            return blocks
        }
        let ordered = countries.sorted {
            ($0.integer("active_end"), $1.text("storefront")) > ($1.integer("active_end"), $0.text("storefront"))
        }
        var table = PageTable(
            columns: [
                .init("Storefront"), .init("Active at start", .right), .init("New", .right),
                .init("Churned: voluntary / involuntary / other", .right), .init("Active at end", .right),
                .init("Refunds", .right), .init("Units sold", .right),
            ], fullFile: "countries.csv")
        let columns = [
            "active_start", "new_paid", "churned_voluntary", "churned_involuntary", "churned_other", "active_end",
            "refunds", "units_sold",
        ]
        func cells(_ name: Text, _ value: (String) -> Int64) -> [Text] {
            [
                name, .count(value("active_start")), .count(value("new_paid")),
                .counts(value("churned_voluntary"), value("churned_involuntary"), value("churned_other")),
                .count(value("active_end")), .count(value("refunds")), .count(value("units_sold")),
            ]
        }
        for row in ordered.prefix(listedStorefronts) {
            table.rows.append(cells(.data(row.text("storefront")), row.integer))
        }
        let rest = ordered.dropFirst(listedStorefronts)
        if !rest.isEmpty {
            var sums: [String: Int64] = [:]
            for row in rest { for column in columns { sums[column, default: 0] += row.integer(column) } }
            table.rows.append(cells("\(rest.count) other storefronts", { sums[$0] ?? 0 }))
        }
        blocks.append(.table(table))
        blocks.append(
            .aside("By the storefront of the period that decides each count; unknown for V1, which carries none."))
        return blocks
    }

    /// Churn rate and trial conversion per plan length (`P1M`, `P1Y`, …), when the month's products have more than one:
    /// a yearly plan can churn only once a year, so a blended rate compares nothing.
    static func planLengths(_ plans: [PlanLengthFigures]) -> [Block] {
        guard plans.count > 1 else { return [] }
        var table = PageTable(columns: [
            .init("Plan length"), .init("Churn rate, voluntary", .right), .init("Churn rate, involuntary", .right),
            .init("Trial conversion", .right),
        ])
        for plan in plans {
            table.rows.append([
                .data(plan.length),
                .unbroken(.data(SubscribersSection.rate(plan.voluntaryChurn, of: plan.activeStart))),
                .unbroken(.data(SubscribersSection.rate(plan.involuntaryChurn, of: plan.activeStart))),
                .unbroken(
                    .data(SubscribersSection.rate(plan.trialsConverted, of: plan.trialsEnded, noun: "converted"))),
            ])
        }
        return [.paragraph("Per plan length (the product's period in mrr.csv):"), .table(table)]
    }
}
