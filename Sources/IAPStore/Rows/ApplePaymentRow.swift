/// One region row of Apple's payment summary as the store keeps it (`apple_payment_rows`): amounts in exact milliunits
/// of `currency`, proceeds in milliunits of `bankCurrency`, the exchange rate as Apple wrote it.
public struct ApplePaymentRow: Sendable, Equatable {
    public var line: Int
    /// `paid` (before the blank row; every row of a pending summary too) or `held`.
    public var section: String
    public var region: String
    public var currency: String
    public var unitsSold: Int64
    public var beginningBalanceMilli: Int64
    public var earnedMilli: Int64
    public var preTaxSubtotalMilli: Int64?
    public var inputTaxMilli: Int64
    public var adjustmentsMilli: Int64
    public var withholdingTaxMilli: Int64
    public var totalOwedMilli: Int64
    public var exchangeRate: String?
    public var proceedsMilli: Int64?
    public var bankCurrency: String?
    /// Columns iaplens does not use, as one canonical JSON object.
    public var otherColumns: String?

    public init(
        line: Int, section: String, region: String, currency: String, unitsSold: Int64, beginningBalanceMilli: Int64,
        earnedMilli: Int64, preTaxSubtotalMilli: Int64?, inputTaxMilli: Int64, adjustmentsMilli: Int64,
        withholdingTaxMilli: Int64, totalOwedMilli: Int64, exchangeRate: String?, proceedsMilli: Int64?,
        bankCurrency: String?, otherColumns: String?
    ) {
        self.line = line
        self.section = section
        self.region = region
        self.currency = currency
        self.unitsSold = unitsSold
        self.beginningBalanceMilli = beginningBalanceMilli
        self.earnedMilli = earnedMilli
        self.preTaxSubtotalMilli = preTaxSubtotalMilli
        self.inputTaxMilli = inputTaxMilli
        self.adjustmentsMilli = adjustmentsMilli
        self.withholdingTaxMilli = withholdingTaxMilli
        self.totalOwedMilli = totalOwedMilli
        self.exchangeRate = exchangeRate
        self.proceedsMilli = proceedsMilli
        self.bankCurrency = bankCurrency
        self.otherColumns = otherColumns
    }

    var values: [SQLValue] {
        [
            SQLValue(line), .text(section), .text(region), .text(currency), .integer(unitsSold),
            .integer(beginningBalanceMilli), .integer(earnedMilli), preTaxSubtotalMilli.map(SQLValue.integer) ?? .null,
            .integer(inputTaxMilli), .integer(adjustmentsMilli), .integer(withholdingTaxMilli),
            .integer(totalOwedMilli),
            exchangeRate.map(SQLValue.text) ?? .null, proceedsMilli.map(SQLValue.integer) ?? .null,
            bankCurrency.map(SQLValue.text) ?? .null, otherColumns.map(SQLValue.text) ?? .null,
        ]
    }

    static let columns =
        "line, section, region, currency, units_sold, beginning_balance_milli, earned_milli, pre_tax_subtotal_milli, "
        + "input_tax_milli, adjustments_milli, withholding_tax_milli, total_owed_milli, exchange_rate, proceeds_milli, "
        + "bank_currency, other_columns"
}
