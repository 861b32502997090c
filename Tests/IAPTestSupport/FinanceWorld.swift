import Foundation
import IAPFinanceFiles
import IAPFormats

/// A small app's fiscal month (March 2026 unless asked) as Apple books it and as its archive holds it, for the
/// financial-report tests: consumable sales in USD and JPY on six days (some late in the Pacific evening, which is the
/// next day in UTC), one refund, and Apple's FINANCE_DETAIL report of the fiscal month built from the same sales. The archive
/// can leave out one Pacific day: then Apple's report holds sales the archive lacks, and Get Notification History (the
/// fake API's data) still has them.
public struct FinanceWorld: Sendable {
    public let app = AppFixture()
    /// The Pacific day whose notifications the archive lost, `YYYY-MM-DD` (nil: none lost).
    public let lostDay: String?
    /// Webhook lines the archive kept.
    public let archiveLines: [String]
    /// Every notification, as the fake API's history serves it.
    public let served: FakeAppStoreData
    /// Apple's report of fiscal March 2026.
    public let report: String
    /// USD units sold on the lost day (what the archive lacks), and their gross in milliunits.
    public let lostUnits: Int
    public let lostGrossMilli: Int64

    public static let coins = "com.example.coins"
    public static let price: Int64 = 990
    public static let jpyPrice: Int64 = 160_000

    /// Apple's fiscal month the world lies in.
    public let fiscalMonth: AppleFiscalMonth

    /// - Parameters:
    ///   - month: the fiscal month (`YYYY-MM`); sales fall on its 2nd to 7th day.
    ///   - lostIndex: which of those six days (0–5) the archive lost; nil: none. The default loses 2026-03-04.
    public init(month: String = "2026-03", lostIndex: Int? = 2) throws {
        let fiscalMonth = AppleFiscalMonth(named: month)!
        self.fiscalMonth = fiscalMonth
        let pacific = TimeZone(identifier: "America/Los_Angeles")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = pacific
        func instant(_ day: ReportDay, hour: Int, minute: Int = 0) -> Int64 {
            let date = calendar.date(
                from: DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute))!
            return Int64(date.timeIntervalSince1970 * 1000)
        }
        let days = (1...6).map { ReportDay(daysSinceEpoch: fiscalMonth.firstDay.daysSinceEpoch + $0)! }
        let lostDay = lostIndex.map { days[$0].isoText }
        let app = AppFixture()
        var served = FakeAppStoreData()
        var kept: [String] = []
        // (Pacific day, UTC instant, quantity, currency, refunded at)
        var sales: [(day: String, time: Int64, quantity: Int, currency: String, refunded: Int64?)] = []
        let hour: Int64 = 3_600_000
        for (index, day) in days.enumerated() {
            // Noon Pacific, and 19:30 Pacific: the next day in UTC.
            let noon = instant(day, hour: 12)
            let evening = instant(day, hour: 19, minute: 30)
            sales.append((day.isoText, noon, 1, "USD", nil))
            sales.append((day.isoText, evening, 2, "USD", index == 3 ? evening + 2 * hour : nil))
            if index % 2 == 1 { sales.append((day.isoText, noon + hour, 1, "JPY", nil)) }
        }
        var lostUnits = 0
        var lostGross: Int64 = 0
        for (index, sale) in sales.enumerated() {
            let id = "4000000\(100 + index)"
            let price = sale.currency == "USD" ? Self.price : Self.jpyPrice
            var transaction = app.transaction(
                id: id, product: Self.coins, type: "Consumable", purchase: sale.time, price: price,
                currency: sale.currency,
                signedDate: sale.time, extra: ["quantity": .int(Int64(sale.quantity))])
            var lines = [
                (
                    sale.time,
                    try app.notification(
                        type: "ONE_TIME_CHARGE", uuid: "sale-\(index)", signedDate: sale.time, transaction: transaction)
                )
            ]
            if let refunded = sale.refunded {
                transaction = transaction.setting("revocationDate", .int(refunded)).setting("revocationReason", .int(1))
                    .setting("signedDate", .int(refunded))
                lines.append(
                    (
                        refunded,
                        try app.notification(
                            type: "REFUND", uuid: "refund-\(index)", signedDate: refunded, transaction: transaction)
                    ))
            }
            for (time, line) in lines {
                served.notifications.append((time, try Self.signedPayload(of: line)))
                if sale.day != lostDay { kept.append(line) }
            }
            if sale.day == lostDay && sale.currency == "USD" {
                lostUnits += sale.quantity
                lostGross += Int64(sale.quantity) * price
            }
        }
        var rows: [String] = []
        var apple: [String: Int] = [:]
        for sale in sales {
            apple["\(sale.day)\t\(sale.currency)\tS", default: 0] += sale.quantity
            if sale.refunded != nil { apple["\(sale.day)\t\(sale.currency)\tR", default: 0] -= sale.quantity }
        }
        for key in apple.keys.sorted() {
            let parts = key.split(separator: "\t").map(String.init)
            let day = ReportDay(isoText: parts[0])!.appleText
            let usd = parts[1] == "USD"
            let quantity = apple[key]!
            let share: Int64 = usd ? 690 : 102_000
            rows.append(
                [
                    day, day, "6447100021", Self.coins, "Coins", "Dev", "IA1", usd ? "US" : "JP", String(quantity),
                    Self.decimal(share, usd), Self.decimal(share * Int64(quantity), usd), parts[1],
                    Self.decimal(usd ? Self.price : Self.jpyPrice, usd), parts[1], parts[2], "", "",
                    usd ? "Americas" : "Japan",
                ].joined(separator: "\t"))
        }
        report =
            "Vendor Name\tTest Dev\nStart Date\t\(fiscalMonth.firstDay.appleText)\nEnd Date\t\(fiscalMonth.lastDay.appleText)\n"
            + "Transaction Date\tSettlement Date\tApple Identifier\tSKU\tTitle\tDeveloper Name\tProduct Type Identifier\t"
            + "Country of Sale\tQuantity\tPartner Share\tExtended Partner Share\tPartner Share Currency\tCustomer Price\t"
            + "Customer Currency\tSale or Return\tPromo Code\tOrder Type\tRegion\n"
            + rows.joined(separator: "\n") + "\n"
            + "Country Of Sale\tPartner Share Currency\tQuantity\tExtended Partner Share\nUS\tUSD\t1\t0.69\n"
        self.lostDay = lostDay
        self.archiveLines = kept
        self.served = served
        self.lostUnits = lostUnits
        self.lostGrossMilli = lostGross
    }

    static func decimal(_ milli: Int64, _ twoDecimals: Bool) -> String {
        let sign = milli < 0 ? "-" : ""
        let magnitude = milli.magnitude
        guard twoDecimals else { return sign + String(magnitude / 1_000) }
        let cents = magnitude / 10
        return sign + "\(cents / 100)." + (cents % 100 < 10 ? "0" : "") + "\(cents % 100)"
    }

    static func signedPayload(of line: String) throws -> String {
        guard case .object(let body) = try JSONParser.parse(Array(line.utf8)),
            let jws = body["signedPayload"]?.stringValue
        else {
            throw CocoaError(.coderInvalidValue)
        }
        return jws
    }
}
