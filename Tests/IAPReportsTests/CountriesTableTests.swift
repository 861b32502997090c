import Foundation
import IAPAnalytics
import Testing

@testable import IAPReports

/// The month page's countries table: the storefronts with the most subscribers at the month's end, and the rest in one
/// summed row, so a long tail of storefronts neither disappears nor buries the table.
@Suite struct CountriesTableTests {
    private func page(storefronts: Int) -> String {
        let rows: [[ReportValue]] = (0..<storefronts).map { index in
            // Storefront i has 100 - i subscribers at the end; every other figure is 1, so sums are counts.
            [
                .text("2026-10"), .text(String(format: "S%02d", index)), .integer(1), .integer(1), .integer(1),
                .integer(1), .integer(1), .integer(Int64(100 - index)), .integer(1), .integer(1),
            ]
        }
        let month = MonthReport(
            month: "2026-10",
            tables: Fixtures.tables([Fixtures.table("countries.csv", ReportColumns.countries, rows)]),
            flaggedTimelines: [], isEmpty: false)
        return RevenueAndCountriesSection.render(month: month).map(MarkdownWriter.block).joined(separator: "\n\n")
    }

    @Test func theLargestStorefrontsAreListedAndTheRestSummedInOneRow() {
        let listed = RevenueAndCountriesSection.listedStorefronts
        let text = page(storefronts: listed + 3)
        for index in 0..<listed { #expect(text.contains("| S\(String(format: "%02d", index)) |"), "S\(index)") }
        #expect(!text.contains("| S\(String(format: "%02d", listed)) |"))
        // The three smallest: active at end 100 - listed … 100 - listed - 2, summed; the other columns count them.
        let end = (0..<3).map { 100 - listed - $0 }.reduce(0, +)
        #expect(text.contains("| 3 other storefronts | 3 | 3 | 3 / 3 / 3 | \(end) | 3 | 3 |"), "\(text)")
    }

    @Test func noSummedRowWhenEveryStorefrontIsListed() {
        let text = page(storefronts: RevenueAndCountriesSection.listedStorefronts)
        #expect(!text.contains("other storefronts"))
    }
}
