import IAPAnalytics

/// The index's trend charts, one value per month: churn voluntary against involuntary, refunds and the refund rate,
/// consumable losses and net revenue per currency, billing-retry recovery.
enum TrendCharts {
    /// Most currencies charted for consumable losses and for net revenue; the key-figures table lists them all.
    static let chartedCurrencies = 4

    /// - Parameters:
    ///   - provisional: indices of the provisional months: hatched columns, hollow points.
    ///   - activeByProduct: subscriptions active at each month's start, per product (subscriptions.csv).
    ///   - convertedMRR: each month's MRR in the reporting currency, when one is in effect.
    static func charts(
        months: [String], figures: [MonthFigures], provisional: Set<Int> = [],
        activeByProduct: [(String, [Int64?])] = [],
        convertedMRR: (currency: String, values: [Int64?])? = nil, currencyWeights: [String: Double] = [:]
    ) -> [ChartSpec] {
        func topCurrencies(_ amounts: [CurrencyAmounts]) -> [String] {
            Self.topCurrencies(amounts, weights: currencyWeights)
        }
        func chart(
            _ name: String, _ title: String, _ kind: ChartSpec.Categorical.Kind, _ series: [ChartSpec.Series],
            _ unit: ChartSpec.ValueUnit, _ axis: String, _ caption: Text
        ) -> ChartSpec {
            ChartSpec(
                name: name, title: title, caption: caption,
                body: .categorical(
                    .init(
                        kind: kind, categories: months, series: series, unit: unit, axisTitle: axis,
                        provisional: provisional)))
        }
        var charts: [ChartSpec] = []
        if !activeByProduct.isEmpty {
            charts.append(
                chart(
                    "active-subscriptions", "Active subscriptions", .lines,
                    activeByProduct.map { .init(name: $0.0, values: $0.1) }, .count, "Subscriptions",
                    "Paid subscriptions active when each month began, per product (the largest ones; every product is in "
                        + "subscriptions.csv). Hollow points: provisional months."))
            // Per plan length where the products have more than one (a yearly plan churns at most once a year).
            let lengths = Self.planLengths(figures)
            let scopes: [String?] = lengths.isEmpty ? [nil] : lengths
            let churnSeries = scopes.flatMap { scope -> [ChartSpec.Series] in
                let suffix = scope.map { ", " + $0 } ?? ""
                return [
                    .init(
                        name: "Voluntary" + suffix, values: figures.map { $0.plan(scope).voluntaryChurnRateTenths },
                        counts: figures.map { CountText.of($0.plan(scope).voluntaryChurn, $0.plan(scope).activeStart) }),
                    .init(
                        name: "Involuntary (billing)" + suffix,
                        values: figures.map { $0.plan(scope).involuntaryChurnRateTenths },
                        counts: figures.map {
                            CountText.of($0.plan(scope).involuntaryChurn, $0.plan(scope).activeStart)
                        }),
                ]
            }
            charts.append(
                chart(
                    "churn-rate", "Churn rate, voluntary and involuntary", .lines, churnSeries,
                    .percentTenths, "Per cent",
                    "Subscriptions churned in the month per 100 active when it began"
                        + (lengths.isEmpty
                            ? ": voluntary (solid, circles) and involuntary (dashed, squares)"
                            : ", per plan length (\(lengths.joined(separator: ", ")); the legend names each line)")
                        + "; no point where fewer than \(BusinessRules.minimumRateBase) were active. Hollow points: provisional months."
                ))
            let trialSeries = scopes.map { scope in
                ChartSpec.Series(
                    name: "Trials converted per 100 ended" + (scope.map { ", " + $0 } ?? ""),
                    values: figures.map { $0.plan(scope).trialConversionTenths },
                    counts: figures.map { CountText.of($0.plan(scope).trialsConverted, $0.plan(scope).trialsEnded) })
            }
            charts.append(
                chart(
                    "trial-conversion", "Trial conversion", .lines, trialSeries,
                    .percentTenths, "Per cent",
                    "Free trials that ended in the month and were followed by a paid renewal within \(BusinessRules.billingRetryWindowDays) days, per 100 that "
                        + "ended" + (lengths.isEmpty ? "" : ", per plan length")
                        + "; no point in a month where fewer than \(BusinessRules.minimumRateBase) ended."))
        }
        charts += [
            chart(
                "churn", "Churn, voluntary and involuntary", .lines,
                [
                    .init(name: "Voluntary", values: figures.map(\.voluntaryChurn)),
                    .init(name: "Involuntary (billing)", values: figures.map(\.involuntaryChurn)),
                ],
                .count, "Subscriptions",
                "Paid subscriptions that ended, by month: voluntary (solid line, circles) and involuntary (dashed "
                    + "line, squares)."),
            chart(
                "refunds", "Refunds", .groupedColumns, [.init(name: "Refunds", values: figures.map(\.refunds))],
                .count, "Refunds", "Refunds by month of the refund date, all product types."),
            chart(
                "refund-rate", "Refund rate", .lines,
                [
                    .init(
                        name: "Refunds per 100 sales",
                        values: figures.map { ChangeText.rateTenths($0.refunds, of: $0.sales) },
                        counts: figures.map { CountText.of($0.refunds, $0.sales) })
                ],
                .percentTenths, "Per cent",
                "The month's refunds per 100 of the month's sales (refunds may be of earlier purchases); no point in a "
                    + "month with fewer than \(BusinessRules.minimumRateBase) sales."),
        ]
        for (index, currency) in topCurrencies(figures.map(\.consumableLostProceeds)).enumerated() {
            charts.append(
                chart(
                    "consumable-losses-" + fileSafe(currency, index), "Consumable lost proceeds, \(currency)",
                    .groupedColumns,
                    [.init(name: "Lost proceeds", values: figures.map { $0.consumableLostProceeds[currency] })],
                    .money(currency: currency), currency,
                    "Estimated proceeds lost to consumable refunds, in \(currency)."))
        }
        charts.append(
            chart(
                "billing-recovery", "Billing-retry outcomes", .stackedColumns,
                [
                    .init(name: "Recovered", values: figures.map(\.billingRecovered)),
                    .init(name: "Expired", values: figures.map(\.billingExpired)),
                    .init(name: "Pending", values: figures.map(\.billingPending)),
                ],
                .count, "Episodes",
                "Billing-retry episodes by the month the failed period expired, stacked: recovered within \(BusinessRules.billingRetryWindowDays) days (solid "
                    + "blue), expired (striped red-orange), still retrying (striped green). Hatched: provisional months."
            ))
        charts.append(
            chart(
                "billing-recovery-rate", "Billing-retry recovery rate", .lines,
                [
                    .init(
                        name: "Recovered per 100 resolved", values: figures.map(\.recoveryRateTenths),
                        counts: figures.map {
                            CountText.of($0.billingRecovered, $0.billingRecovered + $0.billingExpired)
                        })
                ],
                .percentTenths, "Per cent",
                "Episodes recovered per 100 resolved (recovered or expired); pending episodes are left out, and a month "
                    + "with fewer than \(BusinessRules.minimumRateBase) resolved has no point."))
        for (index, currency) in topCurrencies(figures.map(\.netByCurrency)).enumerated() {
            charts.append(
                chart(
                    "net-revenue-" + fileSafe(currency, index), "Net revenue, \(currency)", .groupedColumns,
                    [.init(name: "Net revenue", values: figures.map { $0.netByCurrency[currency] })],
                    .money(currency: currency), currency,
                    "Gross sales minus refunds of the month, in \(currency) (before Apple's commission)."))
        }
        for (index, currency) in topCurrencies(figures.map(\.appleProceedsByCurrency)).enumerated() {
            charts.append(
                chart(
                    "apple-proceeds-" + fileSafe(currency, index), "Apple's proceeds and the estimate, \(currency)",
                    .groupedColumns,
                    [
                        .init(
                            name: "Apple's proceeds",
                            values: figures.map { $0.hasAppleReport ? $0.appleProceedsByCurrency[currency] : nil }),
                        .init(
                            name: "Estimated from the archive",
                            values: figures.map { $0.hasAppleReport ? $0.coveredEstimateByCurrency[currency] : nil }),
                    ],
                    .money(currency: currency), currency,
                    "What Apple's financial reports say it pays (solid) against iaplens's \(BusinessRules.standardProceedsPercent)/\(BusinessRules.reducedProceedsPercent) % estimate for the same "
                        + "days (striped), in \(currency); months without a loaded report have no bars. Apple pays its share "
                        + "net of VAT, so the estimate runs higher where prices include it."))
        }
        if let convertedMRR {
            let currency = convertedMRR.currency
            charts.append(
                chart(
                    "mrr-all-in-" + fileSafe(currency, 0), "Monthly recurring revenue, every currency in \(currency)",
                    .lines,
                    [.init(name: "MRR", values: convertedMRR.values)], .money(currency: currency), currency,
                    "Each month's end: the MRR of every currency (mrr.csv) in \(currency), each at the rate of Apple's paid "
                        + "fiscal month holding the day the base is counted on (a month not yet paid at the latest paid "
                        + "rate); a currency without a paid rate is left out, and the month page names it. Hollow points: "
                        + "provisional months."))
        }
        for (index, currency) in topCurrencies(figures.map(\.mrrByCurrency)).enumerated() {
            charts.append(
                chart(
                    "mrr-" + fileSafe(currency, index), "Monthly recurring revenue, \(currency)", .lines,
                    [.init(name: "MRR", values: figures.map { $0.mrrByCurrency[currency] })],
                    .money(currency: currency), currency,
                    "Each month's end: the active subscriptions' current prices in \(currency), normalised to a month by "
                        + "their product's period (mrr.csv). Hollow points: provisional months."))
        }
        for (index, currency) in topCurrencies(figures.map(\.depositByCurrency)).enumerated() {
            charts.append(
                chart(
                    "deposits-" + fileSafe(currency, index), "Apple's deposits per fiscal month, \(currency)",
                    .groupedColumns,
                    [
                        .init(
                            name: "Deposit",
                            values: figures.map { $0.hasPayment ? $0.depositByCurrency[currency] : nil })
                    ],
                    .money(currency: currency), currency,
                    "What Apple's payment summaries say reaches the bank for each fiscal month (the proceeds of its paid "
                        + "regions), in \(currency); a fiscal month without a paid summary has no bar."))
        }
        return charts
    }

    /// The plan lengths of the months' products, shortest first, when any month has more than one; empty otherwise.
    static func planLengths(_ figures: [MonthFigures]) -> [String] {
        guard figures.contains(where: { $0.planLengths.count > 1 }) else { return [] }
        var lengths: [String] = []
        for figure in figures {
            for plan in figure.planLengths where !lengths.contains(plan.length) { lengths.append(plan.length) }
        }
        return lengths.sorted { (PlanLengthFigures.order($0), $0) < (PlanLengthFigures.order($1), $1) }
    }

    /// The currencies with the largest total magnitude, so the same ones are charted every run. With `weights` (a
    /// milliunit of each currency in one currency, ``ReportSet/currencyWeights``) the magnitudes are weighed first,
    /// and a currency without a weight comes after those with one: milliunits of different currencies are never
    /// compared as they are when a rate can say what they are worth. Ties in order of first appearance.
    static func topCurrencies(_ amounts: [CurrencyAmounts], weights: [String: Double] = [:]) -> [String] {
        var totals = CurrencyAmounts()
        for list in amounts {
            for entry in list.entries {
                totals.add(Int64(clamping: entry.milli.magnitude), currency: entry.currency)
            }
        }
        func key(_ entry: (currency: String, milli: Int64)) -> (Int, Double) {
            guard !weights.isEmpty else { return (0, Double(entry.milli)) }
            guard let weight = weights[entry.currency] else { return (1, Double(entry.milli)) }
            return (0, Double(entry.milli) * weight)
        }
        return totals.entries.enumerated()
            .filter { $0.element.milli != 0 }
            .sorted {
                let (a, b) = (key($0.element), key($1.element))
                if a.0 != b.0 { return a.0 < b.0 }
                return a.1 != b.1 ? a.1 > b.1 : $0.offset < $1.offset
            }
            .prefix(chartedCurrencies).map(\.element.currency)
    }

    /// `usd` for a well-formed code; the chart's position otherwise (currency codes come from the data).
    private static func fileSafe(_ currency: String, _ index: Int) -> String {
        let letters = currency.unicodeScalars.filter { ("A"..."Z").contains($0) }
        return letters.count == 3 && currency.unicodeScalars.count == 3
            ? currency.lowercased() : "\(index + 1)"
    }
}
