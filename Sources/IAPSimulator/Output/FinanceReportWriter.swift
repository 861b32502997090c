import Foundation
import IAPFinanceFiles
import IAPFormats

/// Apple's detailed financial reports (`FINANCE_DETAIL`, region `Z1`) for the simulated app: every sale and refund
/// Apple booked, whether or not the archive kept its notification, aggregated per fiscal month as Apple does (one row
/// per day, product, country, price and sale or return), with VAT taken out where the storefront's prices include it
/// and Apple's 70 % / 85 % of the rest. So the reports show what a real archive lacks: the notifications an outage
/// lost, and the V1 era, which never announced consumables.
struct FinanceReportWriter {
    /// One sale (quantity > 0) or return (quantity < 0) as Apple books it.
    struct Entry: Sendable {
        let time: Int64
        let product: Catalog.Product
        let storefront: Catalog.Storefront
        let quantity: Int
        /// Per unit: the customer's price (for a prorated return, the amount returned) and Apple's share.
        let customerPrice: Int64
        let partnerShare: Int64
    }

    /// Every sale and refund of a customer's transactions, as Apple books them.
    static func entries(of transactions: [SimTransaction], world: SimWorld) -> [Entry] {
        var entries: [Entry] = []
        for tx in transactions where tx.environment == "Production" && tx.bundleId == world.bundleId && tx.isPaid {
            guard tx.purchaseDate < world.horizon else { continue }
            let yearOn =
                tx.product.type == .autoRenewable && tx.purchaseDate >= tx.originalPurchaseDate + 365 * SimTime.day
            let rate: Int64 = yearOn ? 85 : 70
            entries.append(
                Entry(
                    time: tx.purchaseDate, product: tx.product, storefront: tx.storefront, quantity: tx.quantity,
                    customerPrice: tx.price, partnerShare: share(of: tx.price, storefront: tx.storefront, rate: rate)))
            if tx.isRefund, let revoked = tx.revocationDate, revoked < world.horizon {
                let gross = tx.price * Int64(tx.quantity)
                let refunded = tx.revocationPercentage.map { (gross * Int64($0) + 50_000) / 100_000 } ?? gross
                let perUnit = refunded / Int64(tx.quantity)
                entries.append(
                    Entry(
                        time: revoked, product: tx.product, storefront: tx.storefront, quantity: -tx.quantity,
                        customerPrice: perUnit, partnerShare: share(of: perUnit, storefront: tx.storefront, rate: rate))
                )
            }
        }
        return entries
    }

    /// VAT included in the storefront's prices, in percent (US prices exclude sales tax).
    static func vatPercent(_ storefront: Catalog.Storefront) -> Int64 {
        switch storefront.code {
        case "GBR": 20
        case "DEU": 19
        case "JPN": 10
        default: 0
        }
    }

    /// Apple's share per unit: the price net of VAT at the rate, rounded to the currency's smallest unit.
    static func share(of price: Int64, storefront: Catalog.Storefront, rate: Int64) -> Int64 {
        let unit = minorUnit(storefront.currency)
        let exact = price * 100 * rate / (100 + vatPercent(storefront)) / 100
        return (exact + unit / 2) / unit * unit
    }

    static func minorUnit(_ currency: String) -> Int64 { currency == "JPY" ? 1_000 : 10 }

    private struct RowKey: Hashable, Comparable {
        let day: ReportDay
        let sku: String
        let country: String
        let saleOrReturn: String
        let customerPrice: Int64
        let partnerShare: Int64

        static func < (a: RowKey, b: RowKey) -> Bool {
            (a.day, a.sku, a.country, a.saleOrReturn, a.customerPrice, a.partnerShare)
                < (b.day, b.sku, b.country, b.saleOrReturn, b.customerPrice, b.partnerShare)
        }
    }

    private struct RowValue {
        let product: Catalog.Product
        let storefront: Catalog.Storefront
        var quantity = 0
    }

    private var rows: [RowKey: RowValue] = [:]
    private var firstDay: ReportDay?
    private let pacific = AppleReportTimeZone.zone

    mutating func add(_ entries: [Entry]) {
        for entry in entries {
            let seconds = Double(entry.time) / 1000
            let offset = Int64(pacific.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))) * 1000
            guard let day = ReportDay(daysSinceEpoch: Int(SimTime.floorDiv(entry.time + offset, SimTime.day))) else {
                continue
            }
            firstDay = min(firstDay ?? day, day)
            let key = RowKey(
                day: day, sku: entry.product.id, country: Self.country(entry.storefront),
                saleOrReturn: entry.quantity < 0 ? "R" : "S", customerPrice: entry.customerPrice,
                partnerShare: entry.partnerShare)
            rows[key, default: RowValue(product: entry.product, storefront: entry.storefront)].quantity +=
                entry.quantity
        }
    }

    /// Writes one file per fiscal month that ended before `asOf` (Apple publishes a month after it ends), from the
    /// first month with a sale. - Returns: the files written.
    func write(to folder: String, asOf: Int64, vendorName: String) throws(SimulationIOError) -> Int {
        guard var month = firstDay.flatMap({ AppleFiscalMonth(containing: $0) }),
            let today = ReportDay(daysSinceEpoch: Int(SimTime.floorDiv(asOf - 8 * SimTime.hour, SimTime.day)))
        else { return 0 }
        try ArchiveWriter.makeDirectory(folder)
        let byMonth = Dictionary(grouping: rows.keys) { AppleFiscalMonth(containing: $0.day)?.text ?? "" }
        var files = 0
        var payments:
            [(month: AppleFiscalMonth, books: [PaymentSummaryWriter.RegionKey: PaymentSummaryWriter.RegionBooks])] = []
        while month.lastDay < today {
            let keys = (byMonth[month.text] ?? []).sorted()
            try write(month, keys: keys, to: folder, vendorName: vendorName)
            payments.append((month, books(keys)))
            files += 1
            guard let next = month.next else { break }
            month = next
        }
        return files + (try PaymentSummaryWriter.write(payments, to: folder))
    }

    /// What the month's rows earned per region and currency: the payment summary's side of the books.
    private func books(_ keys: [RowKey]) -> [PaymentSummaryWriter.RegionKey: PaymentSummaryWriter.RegionBooks] {
        var books: [PaymentSummaryWriter.RegionKey: PaymentSummaryWriter.RegionBooks] = [:]
        for key in keys {
            guard let value = rows[key], value.quantity != 0 else { continue }
            let region = PaymentSummaryWriter.RegionKey(
                region: Self.region(value.storefront), currency: value.storefront.currency)
            if key.saleOrReturn == "S" { books[region, default: .init()].unitsSold += Int64(value.quantity) }
            books[region, default: .init()].earnedMilli += key.partnerShare * Int64(value.quantity)
        }
        return books
    }

    private func write(_ month: AppleFiscalMonth, keys: [RowKey], to folder: String, vendorName: String)
        throws(SimulationIOError)
    {
        var text =
            "Vendor Name\t\(vendorName)\nStart Date\t\(month.firstDay.appleText)\nEnd Date\t\(month.lastDay.appleText)\n"
        text +=
            "Transaction Date\tSettlement Date\tApple Identifier\tSKU\tTitle\tDeveloper Name\tProduct Type Identifier\t"
            + "Country of Sale\tQuantity\tPartner Share\tExtended Partner Share\tPartner Share Currency\tCustomer Price\t"
            + "Customer Currency\tSale or Return\tPromo Code\tOrder Type\tRegion\n"
        var totals: [String: (currency: String, quantity: Int, amount: Int64)] = [:]
        for key in keys {
            guard let value = rows[key], value.quantity != 0 else { continue }
            let currency = value.storefront.currency
            let extended = key.partnerShare * Int64(value.quantity)
            text +=
                [
                    key.day.appleText, key.day.appleText, Self.appleIdentifier(value.product), key.sku,
                    Self.title(value.product), vendorName, Self.typeIdentifier(value.product), key.country,
                    String(value.quantity), Self.decimal(key.partnerShare, currency), Self.decimal(extended, currency),
                    currency,
                    Self.decimal(key.customerPrice, currency), currency, key.saleOrReturn, "", "",
                    Self.region(value.storefront),
                ].joined(separator: "\t") + "\n"
            var total = totals[key.country] ?? (currency, 0, 0)
            total.quantity += value.quantity
            total.amount += extended
            totals[key.country] = total
        }
        text += "Country Of Sale\tPartner Share Currency\tQuantity\tExtended Partner Share\n"
        for (country, total) in totals.sorted(by: { $0.key < $1.key }) {
            text += "\(country)\t\(total.currency)\t\(total.quantity)\t\(Self.decimal(total.amount, total.currency))\n"
        }
        try ArchiveWriter.writeText(text, to: folder + "/FINANCE_DETAIL_Z1_" + month.text + ".txt")
    }

    /// Milliunits as Apple writes an amount: two decimals, none for JPY.
    static func decimal(_ milli: Int64, _ currency: String) -> String {
        let sign = milli < 0 ? "-" : ""
        let magnitude = milli.magnitude
        if currency == "JPY" { return sign + String(magnitude / 1_000) }
        let cents = magnitude / 10
        return sign + String(cents / 100) + "." + (cents % 100 < 10 ? "0" : "") + String(cents % 100)
    }

    static func country(_ storefront: Catalog.Storefront) -> String {
        switch storefront.code {
        case "USA": "US"
        case "GBR": "GB"
        case "DEU": "DE"
        case "JPN": "JP"
        default: String(storefront.code.prefix(2))
        }
    }

    static func region(_ storefront: Catalog.Storefront) -> String {
        switch storefront.code {
        case "USA": "Americas"
        case "GBR": "United Kingdom"
        case "DEU": "Euro-Zone"
        case "JPN": "Japan"
        default: "Rest of World"
        }
    }

    static func typeIdentifier(_ product: Catalog.Product) -> String {
        switch product.type {
        case .autoRenewable: "IAY"
        case .consumable: "IA1"
        case .nonConsumable: "IA9"
        default: "IA7"
        }
    }

    static func appleIdentifier(_ product: Catalog.Product) -> String {
        String(6_447_100_000 + Int64(product.id.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) % 100_000 }))
    }

    static func title(_ product: Catalog.Product) -> String {
        String(product.id.split(separator: ".").last ?? "")
    }
}
