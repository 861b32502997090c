import IAPFormats

/// One aggregate row of Apple's detailed financial report (`FINANCE_DETAIL`): units of one product sold (`S`) or
/// returned (`R`) on one day in one country at one price, with what Apple pays for them. Amounts are exact
/// milliunits of their currency.
public struct FinancialReportRow: Sendable, Equatable {
    /// The 1-based line of the file.
    public var line: Int
    /// `Transaction Date`: the day of the sale or return in Apple's reporting zone (Pacific Time).
    public var transactionDate: ReportDay
    /// `Settlement Date`, when the row gives one.
    public var settlementDate: ReportDay?
    /// `SKU`: the product ID the app sells under.
    public var sku: String
    /// `Product Type Identifier` (`IA1` consumable, `IA9` non-consumable, `IAY` auto-renewable, `IA7`/`IAC`
    /// non-renewing, …): kept as Apple writes it.
    public var productTypeIdentifier: String
    /// `Country of Sale`, two letters.
    public var countryOfSale: String
    /// `Quantity`: units, negative for a return.
    public var quantity: Int64
    /// `Partner Share`: what Apple pays per unit, after commission and tax.
    public var partnerShareMilli: Int64
    /// `Extended Partner Share`: `Partner Share × Quantity`, negative for a return.
    public var extendedPartnerShareMilli: Int64
    /// `Partner Share Currency`: the currency Apple pays the row in.
    public var partnerShareCurrency: String
    /// `Customer Price`: what the customer paid per unit (for a prorated return, the amount returned per unit).
    public var customerPriceMilli: Int64
    /// `Customer Currency`.
    public var customerCurrency: String
    /// `S` (sale) or `R` (return).
    public var saleOrReturn: String
    /// Every other column of the row, by its header name, in file order: nothing Apple writes is lost.
    public var otherColumns: [(name: String, value: String)]

    public static func == (lhs: FinancialReportRow, rhs: FinancialReportRow) -> Bool {
        lhs.line == rhs.line && lhs.transactionDate == rhs.transactionDate && lhs.settlementDate == rhs.settlementDate
            && lhs.sku == rhs.sku && lhs.productTypeIdentifier == rhs.productTypeIdentifier
            && lhs.countryOfSale == rhs.countryOfSale && lhs.quantity == rhs.quantity
            && lhs.partnerShareMilli == rhs.partnerShareMilli
            && lhs.extendedPartnerShareMilli == rhs.extendedPartnerShareMilli
            && lhs.partnerShareCurrency == rhs.partnerShareCurrency && lhs.customerPriceMilli == rhs.customerPriceMilli
            && lhs.customerCurrency == rhs.customerCurrency && lhs.saleOrReturn == rhs.saleOrReturn
            && lhs.otherColumns.map(\.name) == rhs.otherColumns.map(\.name)
            && lhs.otherColumns.map(\.value) == rhs.otherColumns.map(\.value)
    }
}
