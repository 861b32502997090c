import IAPAnalytics
import Testing

@testable import IAPReports

/// The consumption part of a month page: Apple's own words when it refused an answer, so the team can fix the facts
/// row; a hostile message is data, escaped like every value.
@Suite struct ConsumptionSectionTests {
    private func month(_ requests: [[ReportValue]]) -> MonthReport {
        MonthReport(
            month: "2026-10",
            tables: Fixtures.tables([
                Fixtures.table("consumption_requests.csv", ReportColumns.consumptionRequests, requests)
            ]),
            flaggedTimelines: [], isEmpty: false)
    }

    private func request(
        _ id: String, answer: String, status: String = "", code: String = "", message: String = ""
    ) -> [ReportValue] {
        [
            .text("r-\(id)"), .text(id), .text("2026-10-03T12:00:00Z"), .text("acct-\(id)"), .text(""), .text(answer),
            .text(""), .text(""), .text(""), .text("2026-10"), .text(status), .text(code), .text(message),
            .text("UNINTENDED_PURCHASE"), .text(""),
        ]
    }

    private func page(_ month: MonthReport) -> String {
        ConsumptionSection.render(month: month, accountLink: { _ in nil }).map(MarkdownWriter.block)
            .joined(separator: "\n\n")
    }

    @Test func aRefusedAnswerShowsWhatAppleSaid() {
        let text = page(
            month([
                request("1001", answer: "refused", status: "400", code: "4000023", message: "Invalid <b>request</b>"),
                request("1002", answer: "refused", status: "403"),
                request("1003", answer: "answered"),
            ]))
        #expect(text.contains("What Apple said when it refused an answer"))
        #expect(text.contains("Transaction 1001: HTTP 400, errorCode 4000023, Invalid"))
        #expect(!text.contains("<b>"))
        // Without errorCode or message, nothing follows the status.
        #expect(text.contains("- Transaction 1002: HTTP 403") && !text.contains("HTTP 403,"))
        #expect(!text.contains("Transaction 1003: HTTP"))
    }

    @Test func withoutARefusalThereIsNoSuchList() {
        let text = page(month([request("1003", answer: "answered")]))
        #expect(!text.contains("What Apple said"))
    }
}
