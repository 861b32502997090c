import Foundation
import IAPFormats
import IAPTestSupport
import Testing

/// Money at the edges of what the App Store sends (``AppStoreBounds``) goes through every model on both engines
/// without overflowing or turning into floating point: every `_milli` cell is an exact integer.
@Suite struct MoneyExtremesTests {
    static let maximumPrice = AppStoreBounds.priceMilli.upperBound
    static let maximumQuantity = AppStoreBounds.quantity.upperBound

    /// Forty sales of the highest price at the highest quantity in one month and currency, half refunded in full,
    /// some prorated just under 100 %, and a subscription renewal at the highest price.
    func scenario(smallBusiness: Bool) throws -> Scenario {
        var scenario = Scenario()
        scenario.smallBusiness = smallBusiness
        for index in 0..<40 {
            let id = "max-\(index)"
            let day = String(format: "%02d", index % 28 + 1)
            let purchase = Scenario.at("2026-03-\(day)T10:00:00Z")
            let bought = scenario.app.transaction(
                id: id, product: "com.example.coins", type: "Consumable", purchase: purchase, price: Self.maximumPrice,
                signedDate: purchase,
                extra: [
                    "quantity": .int(Self.maximumQuantity),
                    "appAccountToken": .string("aaaaaaaa-0000-4000-8000-00000000000\(index % 3)"),
                ])
            scenario.lines.append(
                try scenario.app.notification(
                    type: "ONE_TIME_CHARGE", uuid: "buy-\(id)", signedDate: purchase, transaction: bought))
            guard index % 2 == 0 else { continue }
            let refundDate = purchase + 86_400_000
            var refunded = bought.setting("revocationDate", .int(refundDate)).setting("signedDate", .int(refundDate))
            if index % 4 == 2 {
                // Prorated at the largest share below 100 %: gross × pct would pass 2^63 if multiplied first.
                refunded = refunded.setting("revocationPercentage", .int(99_999)).setting(
                    "revocationType", "REFUND_PRORATED")
            }
            scenario.lines.append(
                try scenario.app.notification(
                    type: "REFUND", uuid: "refund-\(id)", signedDate: refundDate, transaction: refunded))
        }
        try scenario.period(
            "DID_RENEW", uuid: "renew-max", id: "renew-max", original: "orig-max", purchase: "2026-03-05T00:00:00Z",
            expires: "2026-04-05T00:00:00Z", price: Self.maximumPrice, originalPurchase: "2024-03-05T00:00:00Z")
        return scenario
    }

    @Test(arguments: StoreKind.allCases)
    func everyMoneyCellIsAnExactInteger(_ kind: StoreKind) throws {
        for smallBusiness in [false, true] {
            let database: String? = kind == .postgres ? try TestPostgres.freshStore() : nil
            let files = try scenario(smallBusiness: smallBusiness).run(database: database)
            var moneyCells = 0
            for (file, rows) in files {
                for row in rows {
                    for (column, value) in row where column.hasSuffix("_milli") && !value.isEmpty {
                        moneyCells += 1
                        #expect(Int64(value) != nil, "\(file) \(column) = \(value) is not an exact integer")
                    }
                }
            }
            #expect(moneyCells > 10)
            let consumables = try #require(
                files["2026-03/reconciliation.csv"]?.first {
                    $0["product_type"] == "consumable" && $0["currency"] == "USD"
                })
            // 40 sales of 10^12 milliunits × 100.
            #expect(consumables["gross_milli"] == String(40 * Self.maximumPrice * Self.maximumQuantity))
            // 10 full refunds, and 10 prorated at 99.999 %: (10^14 × 99999 + 50000) / 100000 each, computed here
            // without overflow as 10^9 × 99999 (10^14 is a multiple of 100000).
            let prorated = Self.maximumPrice * Self.maximumQuantity / 100_000 * 99_999
            #expect(
                consumables["refunded_milli"] == String(10 * Self.maximumPrice * Self.maximumQuantity + 10 * prorated))
        }
    }
}
