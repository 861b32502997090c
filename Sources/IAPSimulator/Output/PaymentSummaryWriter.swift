import IAPFinanceFiles
import IAPFormats

/// Apple's payment summaries for the simulated app (Documentation/Inputs.md "Apple's payment summary"): per fiscal
/// month, what Apple pays per region, from the same books as the financial reports. Japan's earnings have 10 %
/// withheld; a region whose amount owed stays under the payment threshold is held and carried into the next month's
/// `Beginning Balance`; the Euro-Zone gets a small adjustment every fourth month; the latest month is pending (Apple has
/// not paid it yet: no rate, no proceeds). Every paid region converts to the bank's currency, USD.
struct PaymentSummaryWriter {
    /// What Apple's books say one region earned in one fiscal month.
    struct RegionBooks {
        var unitsSold: Int64 = 0
        var earnedMilli: Int64 = 0
    }

    /// Region and currency, as the summary writes them: `Euro-Zone (EUR)`.
    struct RegionKey: Hashable, Comparable {
        let region: String
        let currency: String

        static func < (a: RegionKey, b: RegionKey) -> Bool { (a.region, a.currency) < (b.region, b.currency) }
    }

    /// Below this amount owed (50 units of the region's currency, in milliunits) Apple holds the payment.
    static let thresholdMilli: Int64 = 50_000
    /// The simulated month-end rates into USD, as Apple prints them, with their value as a fraction.
    static let rates: [String: (text: String, numerator: Int64, denominator: Int64)] = [
        "USD": ("1.00000", 100_000, 100_000), "EUR": ("1.08231", 108_231, 100_000),
        "GBP": ("1.26410", 126_410, 100_000), "JPY": ("0.006712", 6_712, 1_000_000),
    ]

    /// Writes one summary per fiscal month in `months` (ascending) that has books; the last one pending.
    /// - Returns: the files written.
    static func write(
        _ months: [(month: AppleFiscalMonth, books: [RegionKey: RegionBooks])], to folder: String
    ) throws(SimulationIOError) -> Int {
        var carried: [RegionKey: Int64] = [:]
        var files = 0
        let withBooks = months.filter { !$0.books.isEmpty }
        for (index, entry) in withBooks.enumerated() {
            let isPending = index == withBooks.count - 1
            let text = summary(entry.month, books: entry.books, carried: &carried, isPending: isPending)
            try ArchiveWriter.writeText(text, to: folder + "/financial_report_" + entry.month.text + ".csv")
            files += 1
        }
        return files
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    static func summary(
        _ month: AppleFiscalMonth, books: [RegionKey: RegionBooks], carried: inout [RegionKey: Int64], isPending: Bool
    ) -> String {
        let hasBalance = books.keys.contains { carried[$0, default: 0] != 0 }
        var header = ["Region (Currency)", "Units Sold"]
        if hasBalance { header.append("Beginning Balance") }
        header += ["Earned", "Pre-Tax Subtotal", "Input Tax", "Adjustments", "Withholding Tax", "Total Owed"]
        if !isPending { header += ["Exchange Rate", "Proceeds"] }
        header.append("Bank Account Currency")
        var paid: [String] = []
        var held: [String] = []
        for (key, book) in books.sorted(by: { $0.key < $1.key }) {
            let balance = carried[key, default: 0]
            let subtotal = balance + book.earnedMilli
            let adjustment: Int64 = key.currency == "EUR" && month.month % 4 == 0 ? -3_500 : 0
            let withholding: Int64 = key.currency == "JPY" ? -(book.earnedMilli / 10 / 1_000 * 1_000) : 0
            let owed = subtotal + adjustment + withholding
            let isHeld = owed < thresholdMilli
            var cells = ["\(key.region) (\(key.currency))", grouped(String(book.unitsSold))]
            if hasBalance { cells.append(amount(balance, key.currency)) }
            cells += [
                amount(book.earnedMilli, key.currency), amount(subtotal, key.currency), amount(0, key.currency),
                amount(adjustment, key.currency), amount(withholding, key.currency), amount(owed, key.currency),
            ]
            if !isPending {
                if isHeld {
                    cells += ["", ""]
                } else {
                    let rate = rates[key.currency] ?? ("1.00000", 1, 1)
                    cells += [rate.text, amount(proceeds(owed, rate: rate), "USD")]
                }
            }
            cells.append("USD")
            let line = cells.map { "\"\($0)\"" }.joined(separator: ",")
            if isHeld && !isPending {
                held.append(line)
                carried[key] = owed
            } else {
                paid.append(line)
                if !isPending { carried[key] = 0 }
            }
        }
        let blank = String(repeating: ",", count: header.count - 1)
        var lines = [
            "\"App Store Connect - Payments and Financial Reports (\(monthNames[month.month - 1]) \(month.year))\""
                + blank
        ]
        lines.append(blank)
        lines.append(header.map { "\"\($0)\"" }.joined(separator: ","))
        lines += paid
        if !held.isEmpty {
            lines.append(blank)
            lines += held
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `owed × rate`, rounded half up to a cent of the bank's currency.
    static func proceeds(_ owed: Int64, rate: (text: String, numerator: Int64, denominator: Int64)) -> Int64 {
        let exact = owed * rate.numerator
        let cents = (exact / 10 + (exact >= 0 ? rate.denominator / 2 : -rate.denominator / 2)) / rate.denominator
        return cents * 10
    }

    /// An amount as Apple's summary prints it: thousands separators, two decimals (none for JPY).
    static func amount(_ milli: Int64, _ currency: String) -> String {
        let plain = FinanceReportWriter.decimal(milli, currency)
        return grouped(plain)
    }

    /// `1234.50` → `1,234.50`.
    static func grouped(_ plain: String) -> String {
        var text = Substring(plain)
        var sign = ""
        if text.hasPrefix("-") {
            sign = "-"
            text = text.dropFirst()
        }
        let whole = text.prefix { $0 != "." }
        let fraction = text.dropFirst(whole.count)
        var groups: [Substring] = []
        var rest = whole
        while rest.count > 3 {
            groups.insert(rest.suffix(3), at: 0)
            rest = rest.dropLast(3)
        }
        groups.insert(rest, at: 0)
        return sign + groups.joined(separator: ",") + fraction
    }
}
