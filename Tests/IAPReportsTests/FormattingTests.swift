import IAPAnalytics
import IAPFormats
import Testing

@testable import IAPReports

@Suite struct FormattingTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (1_790_812_800_000, "2026-10-01T00:00:00Z"),
        (1_791_028_800_999, "2026-10-03T12:00:00Z"),
        (951_782_400_000, "2000-02-29T00:00:00Z"),
        (-1, "1969-12-31T23:59:59Z"),
        (4_102_444_799_000, "2099-12-31T23:59:59Z"),
    ])
    func iso8601(milliseconds: Int64, expected: String) {
        #expect(UTCTimestamp.iso8601(unixMilliseconds: milliseconds) == expected)
    }

    @Test func monthOfInstant() {
        #expect(UTCTimestamp.month(unixMilliseconds: 1_790_812_799_999) == "2026-09")
        #expect(UTCTimestamp.month(unixMilliseconds: 1_790_812_800_000) == "2026-10")
    }

    @Test func money() {
        #expect(MoneyText.amount(1_234_560, currency: "USD") == "1,234.56 USD")
        #expect(MoneyText.amount(995, currency: "EUR") == "1.00 EUR")
        #expect(MoneyText.amount(994, currency: "EUR") == "0.99 EUR")
        #expect(MoneyText.amount(-700, currency: "USD") == "−0.70 USD")
        #expect(MoneyText.amount(0, currency: "XXX") == "—")  // unpriced: no amount is known
        #expect(MoneyText.chartValue(-12_345, currency: "USD") == "-12.35")
    }

    /// Thousands grouped as Apple's payment summaries write them, on the pages only: chart data stays plain.
    @Test func thousandsAreGroupedOnThePagesOnly() {
        #expect(MoneyText.amount(999_990, currency: "USD") == "999.99 USD")
        #expect(MoneyText.amount(1_000_000, currency: "USD") == "1,000.00 USD")
        #expect(MoneyText.amount(-1_049_491_110, currency: "USD") == "−1,049,491.11 USD")
        #expect(MoneyText.amount(23_193_787_000, currency: "JPY") == "23,193,787 JPY")
        #expect(MoneyText.signedAmount(1_234_567_000, currency: "KRW") == "+1,234,567 KRW")
        #expect(MoneyText.amount(1_234_567, currency: "KWD") == "1,234.567 KWD")
        #expect(MoneyText.chartValue(1_049_491_110, currency: "USD") == "1049491.11")
    }

    /// Each currency with its own minor units (ISO 4217): none for JPY and KRW, three for KWD.
    @Test func countsAreGroupedOnThePagesOnly() {
        #expect(CountText.count(999) == "999")
        #expect(CountText.count(48_101) == "48,101")
        #expect(CountText.count(-1_250) == "−1,250")
        #expect(CountText.of(4_165, 35_958) == "4,165 of 35,958")
        #expect(Text.counts(3_696, 722, 47).plain == "3,696 / 722 / 47")
        // Side by side on one line: a narrow column never leaves "29 /" above "29".
        #expect(
            HTMLWriter.inline(.counts(29, 29)) == "<span class=\"nw\">29 / 29</span>",
            "\(HTMLWriter.inline(.counts(29, 29)))")
        #expect(ChangeText.count(current: 48_101, previous: 41_790) == "+6,311 (+15.1 %)")
        #expect(SubscribersSection.rate(4_165, of: 35_958) == "11.6 % (4,165 of 35,958)")
        let sentence: Text = "\(12_345) documents"
        #expect(sentence.plain == "12,345 documents")
        #expect(ChartSpec.ValueUnit.count.text(48_101) == "48,101")
        // Chart data stays a number Mermaid parses.
        #expect(MermaidChart.number(48_101, .count) == "48101")

        // A table made from a CSV file groups its count columns too; an empty cell stays empty.
        let row = ReportRow(columns: ["sales": 0, "refunds": 1], cells: [.integer(8_402), .empty])
        #expect(TableView.cell(row, .init("sales", "Sales", .count)).plain == "8,402")
        #expect(TableView.cell(row, .init("refunds", "Refunds", .count)).plain == "")

        var now = MonthFigures(Fixtures.october())
        now.activeStart = 48_101
        var before = MonthFigures(Fixtures.september())
        before.activeStart = 41_790
        let line = HeadlineSection.lines(current: now, previous: before)
            .first { $0.figure == "Paid subscriptions active at the start" }
        #expect(line?.current == "48,101")
        #expect(line?.previous == "41,790")
        #expect(line?.change == "+6,311 (+15.1 %)")
    }

    @Test func moneyInTheCurrencysOwnMinorUnits() {
        #expect(MoneyText.amount(5_100_000, currency: "JPY") == "5,100 JPY")
        #expect(MoneyText.amount(5_100_500, currency: "JPY") == "5,101 JPY")
        #expect(MoneyText.amount(5_100_499, currency: "JPY") == "5,100 JPY")
        #expect(MoneyText.amount(-1_500, currency: "KRW") == "−2 KRW")
        #expect(MoneyText.amount(1_250, currency: "KWD") == "1.250 KWD")
        #expect(MoneyText.amount(7, currency: "BHD") == "0.007 BHD")
        #expect(MoneyText.amount(1_234_560, currency: "ZZZ") == "1,234.56 ZZZ")
        #expect(MoneyText.signedAmount(-600_000, currency: "JPY") == "−600 JPY")
        #expect(MoneyText.chartValue(-12_345, currency: "JPY") == "-12")
        #expect(MoneyText.amount(Int64.min, currency: "USD") == "−9,223,372,036,854,775.81 USD")
    }

    @Test func changes() {
        #expect(ChangeText.count(current: 13, previous: 10) == "+3 (+30.0 %)")
        #expect(ChangeText.count(current: 7, previous: 8) == "−1")  // a base under 10: no percentage
        #expect(ChangeText.count(current: 7, previous: 80) == "−73 (−91.3 %)")
        #expect(ChangeText.count(current: 4, previous: 0) == "new")
        #expect(ChangeText.count(current: 0, previous: 0) == "no change")
        #expect(ChangeText.count(current: 0, previous: 2) == "−2")
        #expect(ChangeText.money(current: 1_500, previous: 1_000, currency: "USD") == "+0.50 USD")
        #expect(ChangeText.money(current: 15_000, previous: 10_000, currency: "USD") == "+5.00 USD (+50.0 %)")
        #expect(ChangeText.money(current: 5_000, previous: -10_000, currency: "USD") == "+15.00 USD (+150.0 %)")
        #expect(ChangeText.rate(current: 400, previous: 500) == "−10.0 pp")
        #expect(ChangeText.rate(current: nil, previous: 500) == "n/a")
        // Small bases (BusinessRules.minimumRateBase): before, "100.0 %" from a base of 1; now no rate below 20.
        #expect(ChangeText.rateTenths(14, of: 21) == 667)
        #expect(ChangeText.rateTenths(20, of: 20) == 1_000)
        #expect(ChangeText.rateTenths(1, of: 1) == nil)
        #expect(ChangeText.rateTenths(2, of: 19) == nil)
        #expect(SubscribersSection.rate(1, of: 1) == "— (1 of 1)")
    }

    @Test func months() throws {
        #expect(CalendarMonth("2026-01")?.previous.text == "2025-12")
        #expect(CalendarMonth("2026-10")?.previous.text == "2026-09")
        #expect(CalendarMonth("2026-13") == nil)
        #expect(CalendarMonth("../x/y") == nil)
        #expect(CalendarMonth("2026-1") == nil)
    }
}

/// Documentation/Reports.md "Small bases": a rate from a base under the minimum draws no point, and a drawn point's
/// hover text gives the counts it rests on.
@Suite struct SmallBaseChartTests {
    @Test func aRateFromASmallBaseDrawsNoPointAndAPointSaysItsCounts() throws {
        let figures = [MonthFigures(Fixtures.september()), MonthFigures(Fixtures.october())]
        let charts = TrendCharts.charts(
            months: ["2026-09", "2026-10"], figures: figures, provisional: [], activeByProduct: [])
        let recovery = try #require(charts.first { $0.name == "billing-recovery-rate" })
        guard case .categorical(let data) = recovery.body else { Issue.record("not categorical"); return }
        #expect(data.series.first?.values.allSatisfy { $0 == nil } == true, "fewer than 20 resolved: no point")
        let svg = SVGChart.render(recovery)
        #expect(!svg.contains("class=\"point\""))
        let refundRate = try #require(charts.first { $0.name == "refund-rate" })
        guard case .categorical(let rates) = refundRate.body else { return }
        for (index, value) in (rates.series.first?.values ?? []).enumerated() where value != nil {
            let figure = figures[index]
            #expect(SVGChart.render(refundRate).contains("(\(figure.refunds) of \(figure.sales))"))
        }
    }
}

/// Which currencies the index charts (the four largest): by what they are worth when a paid rate says it, never by
/// their milliunits compared as they are.
@Suite struct ChartedCurrencyTests {
    static func amounts(_ list: [(String, Int64)]) -> CurrencyAmounts {
        var amounts = CurrencyAmounts()
        for (currency, milli) in list { amounts.add(milli, currency: currency) }
        return amounts
    }

    /// Before: the largest milliunit totals won, so an app selling in Korea and Indonesia charted KRW, IDR and JPY and
    /// left USD and EUR out. Now, with rates, the totals are weighed; a currency without a rate comes after.
    @Test func theLargestByWorthAreChartedWhenRatesSayIt() {
        let months = [
            Self.amounts([
                ("IDR", 150_000_000), ("KRW", 40_000_000), ("JPY", 900_000), ("USD", 700_000), ("EUR", 650_000),
                ("THB", 5_000_000),
            ]),
            Self.amounts([("USD", 20_000), ("GBP", 300_000)]),
        ]
        #expect(
            TrendCharts.topCurrencies(months) == ["IDR", "KRW", "THB", "JPY"], "without rates: by magnitude, as before")
        let weights = ["USD": 1, "EUR": 1.08, "GBP": 1.26, "JPY": 0.0067, "KRW": 0.00073, "IDR": 0.000063]
        #expect(TrendCharts.topCurrencies(months, weights: weights) == ["USD", "EUR", "GBP", "KRW"])
        // THB has no rate: after every currency that has one, however large its milliunits.
        #expect(
            TrendCharts.topCurrencies([months[0]], weights: ["USD": 1, "EUR": 1.08]) == ["EUR", "USD", "IDR", "KRW"])
    }
}
