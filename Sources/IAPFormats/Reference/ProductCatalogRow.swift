/// One row of `products.csv` (`product_id,type,currency,price_milli`).
public struct ProductCatalogRow: Sendable, Equatable {
    /// 1-based line in the file where the row starts (the header is line 1).
    public let line: Int
    /// The product identifier.
    public let productId: String
    /// The product type as written: Apple's spelling (`Auto-Renewable Subscription`, `Non-Renewing Subscription`,
    /// `Consumable`, `Non-Consumable`) or the CSV spelling (`auto_renewable`, …), any letter case. See ``csvType``.
    public let type: String
    /// ISO 4217 currency code, three upper-case letters.
    public let currency: String
    /// Price in milliunits of `currency` (1.99 is 1990).
    public let priceMilli: Int64

    /// Creates a row.
    public init(line: Int, productId: String, type: String, currency: String, priceMilli: Int64) {
        self.line = line
        self.productId = productId
        self.type = type
        self.currency = currency
        self.priceMilli = priceMilli
    }

    /// The type in the reports' CSV spelling: `auto_renewable`, `non_renewing`, `consumable`, `non_consumable`
    /// (`nil` only for a type that validation would have rejected).
    public var csvType: String? { Self.csvType(for: type) }

    /// Maps any accepted spelling of a product type (case-insensitive) to its CSV spelling (``ProductType``).
    public static func csvType(for written: String) -> String? {
        ProductType(anySpelling: written)?.reportName
    }
}
