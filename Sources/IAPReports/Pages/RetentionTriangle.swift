import IAPAnalytics
import IAPFormats

/// The index's retention triangle (`cohorts.csv`, Documentation/Reports.md "cohorts.csv"): a row per cohort, a column
/// per month since it started, each cell the share of the cohort still active then; a cohort under the minimum base
/// shows counts only, and a cell measured at the end of a provisional month is marked.
enum RetentionTriangle {
    static func render(_ set: ReportSet) -> [Block] {
        let rows = set.cohorts.namedRows
        var blocks: [Block] = [.heading(level: 2, "Retention by cohort", anchor: "cohorts")]
        guard !rows.isEmpty else {
            blocks.append(.aside("No cohort yet: no subscription's first paid period is in a month written."))
            return blocks
        }
        let columns = rows.map { Int($0.integer("months_since")) }.max() ?? 0
        var table = PageTable(
            columns: [.init("Cohort"), .init("New", .right)]
                + (1...max(columns, 1)).map { .init(.prose("+\($0)"), .right) },
            fullFile: ReportColumns.cohortsFileName)
        var marked = false
        for cohort in Dictionary(grouping: rows, by: { $0.text("cohort_month") }).keys.sorted() {
            let cells = rows.filter { $0.text("cohort_month") == cohort }
            let size = cells.first?.integer("cohort_size") ?? 0
            var line: [Text] = [.data(cohort), .count(size)]
            for k in 1...max(columns, 1) {
                guard let cell = cells.first(where: { $0.integer("months_since") == Int64(k) }) else {
                    line.append(Text())
                    continue
                }
                let active = cell.integer("active")
                var text =
                    size >= BusinessRules.minimumRateBase
                    ? Text.prose(ChangeText.percent(tenths: (cell.integer("retention_permille"))))
                    : "\(active) of \(size)"
                if let month = CalendarMonth(cohort), isProvisional(month, plus: k - 1, asOf: set.asOf) {
                    text += "*"
                    marked = true
                }
                line.append(.unbroken(text))
            }
            table.rows.append(line)
        }
        blocks.append(
            .paragraph(
                "Of each month's new paid subscriptions, the share active at the start of each later month (any product; a "
                    + "resubscription counts again). Cohorts under \(BusinessRules.minimumRateBase) show counts only."
                    + (marked ? " *: measured at the end of a provisional month; it may still change." : "")))
        blocks.append(.table(table))
        return blocks
    }

    /// True when month `start` + `offset` is provisional as of `asOf`.
    private static func isProvisional(_ start: CalendarMonth, plus offset: Int, asOf: Int64) -> Bool {
        var month = start
        for _ in 0..<offset { month = month.next }
        return ProvisionalMonth.isProvisional(month.text, asOf: asOf)
    }
}
