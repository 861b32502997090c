/// One row of `products.csv` as stored: the catalog that prices V1 transactions and types their products.
public struct ProductReferenceRow: Sendable, Equatable {
    /// Line in the file (file order decides between several rows of one product).
    public var line: Int
    public var productId: String
    /// CSV spelling: `auto_renewable`, `non_renewing`, `consumable`, `non_consumable`.
    public var productType: String
    public var currency: String
    public var priceMilli: Int64

    /// Creates a row.
    public init(line: Int, productId: String, productType: String, currency: String, priceMilli: Int64) {
        self.line = line
        self.productId = productId
        self.productType = productType
        self.currency = currency
        self.priceMilli = priceMilli
    }
}

/// One row of `accounts.csv` as stored: an `appAccountToken` (lower-cased) and the app's own account ID.
public struct AccountReferenceRow: Sendable, Equatable {
    public var line: Int
    public var appAccountToken: String
    public var accountId: String

    /// Creates a row; the token is lower-cased here because tokens are compared lower-cased.
    public init(line: Int, appAccountToken: String, accountId: String) {
        self.line = line
        self.appAccountToken = appAccountToken.lowercased()
        self.accountId = accountId
    }
}
