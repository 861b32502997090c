import IAPAnalytics
import IAPFormats
import Testing

@testable import IAPReports

/// The finance section's advice against Apple's reports can be followed. Before: it advised
/// `iaplens fetch --since 2021-01…`, a window Apple's Notification History (180 days) no longer holds, and a product
/// whose V1 sales Apple counts in EUR, GBP and JPY was said to be short in EUR and over in USD. After: a fetch only for
/// windows inside the 180 days before `T`, and "currency unknown" where the units agree across currencies.
@Suite struct AppleAdviceTests {
    static let day: Int64 = 86_400_000

    static func row(_ month: String, _ product: String, _ currency: String, apple: Int64, archive: Int64, gap: String)
        -> [ReportValue]
    {
        let status = apple > archive ? "archive_short" : apple < archive ? "archive_over" : "match"
        return [
            .text(month), .text(product), .text(currency), .integer(28), .integer(apple), .integer(archive),
            .integer(0),
            .integer(0), .integer(apple * 990), .integer(archive * 990), .integer(0), .integer(0),
            .integer(apple * 690),
            .integer(archive * 690), .text(currency), .text(apple == archive ? "" : gap),
            .text(apple == archive ? "" : gap),
            .text(status),
        ]
    }

    static func page(month: String, rows: [[ReportValue]], asOf: Int64) -> String {
        let report = MonthReport(
            month: month,
            tables: Fixtures.tables([
                Fixtures.table("apple_reconciliation.csv", ReportColumns.appleReconciliation, rows)
            ]),
            flaggedTimelines: [], isEmpty: false)
        let base = Fixtures.set(months: [report])
        let set = ReportSet(
            asOf: asOf, environment: base.environment, bundleId: base.bundleId, smallBusiness: false, months: [report],
            dataQuality: base.dataQuality, notes: [],
            appleReports: [AppleReportCoverage(firstDay: month + "-01", lastDay: month + "-28", rows: 10)])
        return MonthPageRenderer.render(month: report, previous: nil, set: set)
    }

    @Test func aGapOlderThanAppleKeepsHistoryGetsNoFetchCommand() throws {
        let old = Self.page(
            month: "2021-01",
            rows: [Self.row("2021-01", "com.example.coins", "USD", apple: 5, archive: 3, gap: "2021-01-10")],
            asOf: ISO8601Millis.parse("2022-12-31T00:00:00Z")!)
        #expect(!old.contains("iaplens fetch --since 2021"))
        #expect(old.contains("older than the 180 days"))
        let recent = Self.page(
            month: "2022-12",
            rows: [Self.row("2022-12", "com.example.coins", "USD", apple: 5, archive: 3, gap: "2022-12-10")],
            asOf: ISO8601Millis.parse("2022-12-31T00:00:00Z")!)
        #expect(recent.contains("iaplens fetch --since 2022-12-10T08:00:00Z"))
    }

    @Test func unitsThatAgreeAcrossCurrenciesAreNotShortOrOver() throws {
        let text = Self.page(
            month: "2021-01",
            rows: [
                Self.row("2021-01", "com.example.monthly", "EUR", apple: 36, archive: 0, gap: "2021-01-03"),
                Self.row("2021-01", "com.example.monthly", "GBP", apple: 36, archive: 0, gap: "2021-01-03"),
                Self.row("2021-01", "com.example.monthly", "JPY", apple: 22, archive: 0, gap: "2021-01-03"),
                Self.row("2021-01", "com.example.monthly", "USD", apple: 87, archive: 181, gap: "2021-01-03"),
            ],
            asOf: ISO8601Millis.parse("2021-02-15T00:00:00Z")!)
        #expect(text.contains("currency is unknown"))
        #expect(text.contains("181 sold on each side"))
        #expect(!text.contains("iaplens fetch --since"))
    }
}
