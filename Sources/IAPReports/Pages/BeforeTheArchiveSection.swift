import IAPAnalytics

/// What came before the archive, said once (Documentation/Reports.md "Months written"): the months before the first
/// observed month are never reported, because they are rebuilt from later documents and hold only the subscribers who
/// survived into the archive. This block says how many subscriptions were already active when it began and what Apple's
/// own reports say of the days before, in total. On the index and on the first observed month's page.
enum BeforeTheArchiveSection {
    static func render(set: ReportSet, firstMonth: MonthReport) -> [Block] {
        guard let first = set.firstObservedMonth, first == firstMonth.month else { return [] }
        let activeAtStart = firstMonth.rows("subscriptions.csv").reduce(Int64(0)) { $0 + $1.integer("active_start") }
        var text: Text =
            "The archive begins in \(strong: .data(first)) (its first notification), so reports begin there. "
        if activeAtStart > 0 {
            text +=
                "\(strong: "\(activeAtStart)") subscription\(activeAtStart == 1 ? " was" : "s were") already "
                + "active when it began, rebuilt from later documents (a V1 receipt carries a subscription's history); "
                + "yearly plans appear only at their next renewal, so that base grows for a year without new customers. "
        }
        text +=
            "Earlier months are not reported: rebuilt from later documents they would hold only the subscribers who "
            + "survived into the archive (0 % churn, a base that only grows)."
        var blocks: [Block] = [
            .heading(level: 3, "Before the archive", anchor: "before-the-archive"), .paragraph(text),
        ]
        if !set.appleBeforeArchive.isEmpty {
            let parts = set.appleBeforeArchive.map { total -> Text in
                .data(total.firstDay) + " … " + .data(total.lastDay) + ": "
                    + "\(total.unitsSold) unit\(total.unitsSold == 1 ? "" : "s") sold, \(total.unitsReturned) returned, "
                    + .money(total.proceedsMilli, currency: total.currency) + " Apple's proceeds"
            }
            blocks.append(
                .paragraph(
                    "What Apple's financial reports say of the days before it, in total (per currency Apple pays in):"))
            blocks.append(.list(parts))
        }
        return blocks
    }
}
