import IAPAnalytics
import IAPFormats

/// The **Headlines** table of a month page: each figure, last month's value and the change.
enum HeadlineSection {
    /// One headline row before rendering.
    struct Line {
        let figure: String
        let current: String
        let previous: String
        let change: String
        /// True for a figure that can still move while its month is provisional (churn inferred from silence, billing
        /// episodes and trials that may still convert); money and counts of what happened are final at once.
        var settles = false
    }

    /// The section's blocks (without its heading).
    /// - Parameter provisional: the month of the two that is provisional, if one is: then no change is computed.
    static func render(
        month: String, current: MonthFigures, previousMonth: String?, previous: MonthFigures?,
        provisional: String? = nil
    ) -> [Block] {
        var lines = lines(current: current, previous: previous)
        if let provisional, previousMonth != nil {
            lines = lines.map {
                guard $0.settles else { return $0 }
                return Line(
                    figure: $0.figure, current: $0.current, previous: $0.previous,
                    change: "not compared: \(provisional) is provisional")
            }
        }
        var columns = [PageTable.Column("Figure"), PageTable.Column(.data(month), .right)]
        if let previousMonth {
            columns.append(PageTable.Column(.data(previousMonth), .right))
            columns.append(PageTable.Column("Change", .right))
        }
        var table = PageTable(columns: columns)
        table.rows = lines.map { line in
            var cells = [Text.data(line.figure), Text.data(line.current)]
            if previousMonth != nil {
                cells.append(.data(line.previous))
                cells.append(.data(line.change))
            }
            return cells
        }
        var blocks: [Block] = [.table(table)]
        if previousMonth == nil {
            blocks.append(.aside("No previous month in this report set, so no change is shown."))
        }
        return blocks
    }

    /// What the month's figures rest on: the days of the month that hold an accepted notification, and those a loaded
    /// Apple financial report covers (`months.csv`; the page's first line gives the as-of time). A month the archive
    /// saw on few days (an outage, a lost file) says so here, beside the figures it makes look small.
    static func coverage(_ archive: ArchiveMonth) -> Block? {
        guard let month = CalendarMonth(archive.month) else { return nil }
        let days = CivilCalendar.daysInMonth(year: Int64(month.year), month: Int64(month.month))
        var text: Text
        if archive.archiveDays == 0 {
            text =
                "\(strong: "What these figures rest on:") no notification in the archive is dated in this month: "
                + "its figures come from documents dated in other months (lookups, later renewals)."
        } else {
            let range =
                archive.firstArchiveDay == archive.lastArchiveDay
                ? Text.data(archive.firstArchiveDay ?? "")
                : .data(archive.firstArchiveDay ?? "") + " … " + .data(archive.lastArchiveDay ?? "")
            text =
                "\(strong: "What these figures rest on:") notifications on " + .data("\(archive.archiveDays)")
                + " of the month's \(days) days (" + range + ")"
            text +=
                archive.archiveDays < days
                ? "; a day without one may be a quiet day or one the archive lacks."
                : "."
        }
        if archive.appleDaysCovered > 0 {
            text += " Apple's financial reports cover " + .data("\(archive.appleDaysCovered)") + " of its days."
        }
        return .aside(text)
    }

    /// The headline figures with their change; `previous` nil means there is no previous month to compare with.
    static func lines(current: MonthFigures, previous: MonthFigures?) -> [Line] {
        func count(_ figure: String, _ value: (MonthFigures) -> Int64) -> Line {
            let now = value(current)
            guard let previous else {
                return Line(figure: figure, current: CountText.count(now), previous: "", change: "no previous month")
            }
            let before = value(previous)
            return Line(
                figure: figure, current: CountText.count(now), previous: CountText.count(before),
                change: ChangeText.count(current: now, previous: before))
        }
        func money(_ figure: String, _ amounts: (MonthFigures) -> CurrencyAmounts) -> [Line] {
            let lists = [amounts(current)] + (previous.map { [amounts($0)] } ?? [])
            return CurrencyAmounts.unionOfCurrencies(lists).map { currency in
                let now = amounts(current)[currency]
                let label = "\(figure) (\(currency))"
                guard let previous else {
                    return Line(
                        figure: label, current: MoneyText.amount(now, currency: currency), previous: "",
                        change: "no previous month")
                }
                let before = amounts(previous)[currency]
                return Line(
                    figure: label, current: MoneyText.amount(now, currency: currency),
                    previous: MoneyText.amount(before, currency: currency),
                    change: ChangeText.money(current: now, previous: before, currency: currency))
            }
        }
        // Rates with the counts they come from: "17 recovered, 0 expired, 11 pending", never "17 / 28".
        func rate(_ figures: MonthFigures?) -> String {
            guard let figures else { return "" }
            guard figures.billingEpisodes > 0 else { return "no episodes" }
            guard let tenths = figures.recoveryRateTenths else { return figures.billingOutcomes }
            return "\(ChangeText.percent(tenths: tenths)) of resolved (\(figures.billingOutcomes))"
        }
        func subscriberRate(
            _ figures: MonthFigures?, _ value: (MonthFigures) -> Int64?, _ counts: (MonthFigures) -> String
        ) -> String {
            guard let figures else { return "" }
            return (value(figures).map { ChangeText.percent(tenths: $0) + " " } ?? "— ") + "(\(counts(figures)))"
        }
        func rateLine(
            _ figure: String, _ value: @escaping (MonthFigures) -> Int64?, _ counts: @escaping (MonthFigures) -> String
        ) -> Line {
            Line(
                figure: figure, current: subscriberRate(current, value, counts),
                previous: subscriberRate(previous, value, counts),
                change: previous == nil
                    ? "no previous month" : ChangeText.rate(current: value(current), previous: previous.flatMap(value)))
        }

        func settling(_ line: Line) -> Line {
            var line = line
            line.settles = true
            return line
        }
        // Each rate per plan length where the month's products have more than one (MonthFigures.rateScopes).
        var rates: [Line] = []
        for scope in current.rateScopes {
            let suffix = scope.map { ", " + $0 } ?? ""
            rates += [
                rateLine("Churn rate, voluntary" + suffix, { $0.plan(scope).voluntaryChurnRateTenths }) {
                    CountText.of($0.plan(scope).voluntaryChurn, $0.plan(scope).activeStart)
                },
                rateLine("Churn rate, involuntary" + suffix, { $0.plan(scope).involuntaryChurnRateTenths }) {
                    CountText.of($0.plan(scope).involuntaryChurn, $0.plan(scope).activeStart)
                },
                rateLine("Trial conversion" + suffix, { $0.plan(scope).trialConversionTenths }) {
                    CountText.of($0.plan(scope).trialsConverted, $0.plan(scope).trialsEnded) + " ended trials"
                },
            ]
        }
        var lines = [count("Paid subscriptions active at the start") { $0.activeStart }] + rates.map(settling)
        lines += [
            settling(count("Subscriptions churned, voluntary") { $0.voluntaryChurn }),
            settling(count("Subscriptions churned, involuntary") { $0.involuntaryChurn }),
            settling(count("Subscriptions churned, other") { $0.otherChurn }),
            settling(
                Line(
                    figure: "Billing-retry recovery rate", current: rate(current), previous: rate(previous),
                    change: previous == nil
                        ? "no previous month"
                        : ChangeText.rate(current: current.recoveryRateTenths, previous: previous?.recoveryRateTenths))),
            count("Refunds") { $0.refunds },
        ]
        lines += money("Consumable lost proceeds") { $0.consumableLostProceeds }
        lines.append(count("Flagged accounts") { $0.flaggedAccounts })
        lines += money("Net revenue") { $0.netByCurrency }
        return lines
    }
}
