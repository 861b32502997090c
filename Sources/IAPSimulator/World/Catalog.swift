import IAPFormats

/// The simulated app's storefronts and products, with prices per currency in milliunits.
struct Catalog: Sendable {
    /// A storefront: ISO 3166-1 alpha-3 code, Apple storefront ID, currency.
    struct Storefront: Sendable {
        let code: String
        let id: String
        let currency: String
        /// Relative share of customers.
        let weight: Double
    }

    /// A product with its price in every storefront currency.
    struct Product: Sendable {
        let id: String
        let type: ProductType
        /// Subscription period in months (0 for one-time products).
        let periodMonths: Int
        /// Price in milliunits by currency, in storefront order.
        let prices: [(currency: String, milli: Int64)]

        func price(in currency: String) -> Int64 {
            prices.first { $0.currency == currency }?.milli ?? 0
        }
    }

    static let subscriptionGroup = "21482459"

    let storefronts: [Storefront] = [
        Storefront(code: "USA", id: "143441", currency: "USD", weight: 5),
        Storefront(code: "GBR", id: "143444", currency: "GBP", weight: 2),
        Storefront(code: "DEU", id: "143443", currency: "EUR", weight: 2),
        Storefront(code: "JPN", id: "143462", currency: "JPY", weight: 1),
    ]

    let monthly: Product
    let yearly: Product
    let legacyMonthly: Product
    let coins100: Product
    let coins500: Product
    let lifetime: Product

    init(bundleId: String) {
        func prices(_ usd: Int64, _ gbp: Int64, _ eur: Int64, _ jpy: Int64) -> [(currency: String, milli: Int64)] {
            [("USD", usd), ("GBP", gbp), ("EUR", eur), ("JPY", jpy)]
        }
        monthly = Product(
            id: bundleId + ".monthly", type: .autoRenewable, periodMonths: 1,
            prices: prices(9_990, 8_990, 9_990, 1_200_000))
        yearly = Product(
            id: bundleId + ".yearly", type: .autoRenewable, periodMonths: 12,
            prices: prices(79_990, 69_990, 79_990, 9_800_000))
        legacyMonthly = Product(
            id: bundleId + ".monthly_legacy", type: .autoRenewable, periodMonths: 1,
            prices: prices(6_990, 5_990, 6_990, 800_000))
        coins100 = Product(
            id: bundleId + ".coins100", type: .consumable, periodMonths: 0,
            prices: prices(1_990, 1_790, 1_990, 300_000))
        coins500 = Product(
            id: bundleId + ".coins500", type: .consumable, periodMonths: 0,
            prices: prices(7_990, 6_990, 7_990, 1_200_000))
        lifetime = Product(
            id: bundleId + ".lifetime", type: .nonConsumable, periodMonths: 0,
            prices: prices(49_990, 44_990, 49_990, 7_000_000))
    }

    var products: [Product] { [monthly, yearly, legacyMonthly, coins100, coins500, lifetime] }

    /// A storefront picked by customer share.
    func storefront(_ random: inout SimRandom) -> Storefront {
        storefronts[random.weighted(storefronts.map(\.weight))]
    }

    /// `products.csv`: one row per product and currency, USD first so V1 lookups (first row wins) price in USD.
    var productsCSV: String {
        var text = "product_id,type,currency,price_milli\n"
        for product in products {
            for price in product.prices {
                text += "\(product.id),\(product.type.rawValue),\(price.currency),\(price.milli)\n"
            }
        }
        return text
    }
}
