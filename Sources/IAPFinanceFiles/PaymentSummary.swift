import IAPFormats

/// One of Apple's payment summaries, read whole (``PaymentSummaryReader``).
public struct PaymentSummary: Sendable, Equatable {
    /// The title line's first cell, as written.
    public let title: String
    /// The fiscal month the title names (`(March 2026)` → `2026-03`).
    public let fiscalMonth: CalendarMonth
    /// True when the file has no `Exchange Rate` and `Proceeds`: Apple has not paid the month yet.
    public let isPending: Bool
    /// The region rows, in file order.
    public let rows: [PaymentSummaryRow]
}

/// One region row of a payment summary, amounts in milliunits of `currency` (proceeds of `bankCurrency`).
public struct PaymentSummaryRow: Sendable, Equatable {
    /// Before the blank row: paid (or pending, in a pending file); after it: held below Apple's payment threshold.
    public enum Section: String, Sendable {
        case paid
        case held
    }

    public let line: Int
    public let section: Section
    /// `Euro-Zone (EUR)` → `Euro-Zone`, `EUR`.
    public let region: String
    public let currency: String
    public let unitsSold: Int64
    /// 0 without the column.
    public let beginningBalanceMilli: Int64
    public let earnedMilli: Int64
    public let preTaxSubtotalMilli: Int64?
    /// 0 without the column.
    public let inputTaxMilli: Int64
    public let adjustmentsMilli: Int64
    public let withholdingTaxMilli: Int64
    public let totalOwedMilli: Int64
    /// As written, without thousands separators; nil for pending and held rows.
    public let exchangeRate: String?
    /// In milliunits of `bankCurrency`; nil for pending and held rows.
    public let proceedsMilli: Int64?
    public let bankCurrency: String?
    /// Columns iaplens does not use, by header name, with their non-empty values.
    public let otherColumns: [(name: String, value: String)]

    public static func == (a: PaymentSummaryRow, b: PaymentSummaryRow) -> Bool {
        a.line == b.line && a.section == b.section && a.region == b.region && a.currency == b.currency
            && a.unitsSold == b.unitsSold && a.beginningBalanceMilli == b.beginningBalanceMilli
            && a.earnedMilli == b.earnedMilli
            && a.preTaxSubtotalMilli == b.preTaxSubtotalMilli && a.inputTaxMilli == b.inputTaxMilli
            && a.adjustmentsMilli == b.adjustmentsMilli && a.withholdingTaxMilli == b.withholdingTaxMilli
            && a.totalOwedMilli == b.totalOwedMilli && a.exchangeRate == b.exchangeRate
            && a.proceedsMilli == b.proceedsMilli
            && a.bankCurrency == b.bankCurrency && a.otherColumns.map(\.name) == b.otherColumns.map(\.name)
            && a.otherColumns.map(\.value) == b.otherColumns.map(\.value)
    }
}
