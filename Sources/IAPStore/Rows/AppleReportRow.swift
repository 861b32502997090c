/// One row of an Apple financial report as the store keeps it (`apple_report_rows`): days as `YYYY-MM-DD`, amounts in
/// exact milliunits, the columns iaplens does not read as one JSON object.
public struct AppleReportRow: Sendable, Equatable {
    public var line: Int
    public var transactionDate: String
    public var settlementDate: String?
    public var sku: String
    public var productTypeIdentifier: String
    public var countryOfSale: String
    public var quantity: Int64
    public var partnerShareMilli: Int64
    public var extendedPartnerShareMilli: Int64
    public var partnerShareCurrency: String
    public var customerPriceMilli: Int64
    public var customerCurrency: String
    public var saleOrReturn: String
    public var otherColumns: String?
    /// `Region` (the payment summary's region name), when the report has the column.
    public var region: String?

    public init(
        line: Int, transactionDate: String, settlementDate: String?, sku: String, productTypeIdentifier: String,
        countryOfSale: String, quantity: Int64, partnerShareMilli: Int64, extendedPartnerShareMilli: Int64,
        partnerShareCurrency: String, customerPriceMilli: Int64, customerCurrency: String, saleOrReturn: String,
        otherColumns: String?, region: String? = nil
    ) {
        self.region = region
        self.line = line
        self.transactionDate = transactionDate
        self.settlementDate = settlementDate
        self.sku = sku
        self.productTypeIdentifier = productTypeIdentifier
        self.countryOfSale = countryOfSale
        self.quantity = quantity
        self.partnerShareMilli = partnerShareMilli
        self.extendedPartnerShareMilli = extendedPartnerShareMilli
        self.partnerShareCurrency = partnerShareCurrency
        self.customerPriceMilli = customerPriceMilli
        self.customerCurrency = customerCurrency
        self.saleOrReturn = saleOrReturn
        self.otherColumns = otherColumns
    }

    var values: [SQLValue] {
        [
            SQLValue(line), .text(transactionDate), settlementDate.map(SQLValue.text) ?? .null, .text(sku),
            .text(productTypeIdentifier), .text(countryOfSale), .integer(quantity), .integer(partnerShareMilli),
            .integer(extendedPartnerShareMilli), .text(partnerShareCurrency), .integer(customerPriceMilli),
            .text(customerCurrency), .text(saleOrReturn), otherColumns.map(SQLValue.text) ?? .null,
            region.map(SQLValue.text) ?? .null,
        ]
    }

    static let columns =
        "line, transaction_date, settlement_date, sku, product_type_identifier, country_of_sale, quantity, "
        + "partner_share_milli, extended_partner_share_milli, partner_share_currency, customer_price_milli, "
        + "customer_currency, sale_or_return, other_columns, region"
}
