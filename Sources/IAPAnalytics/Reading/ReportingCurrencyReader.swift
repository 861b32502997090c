import IAPFinanceFiles
import IAPFormats
import IAPStore

/// The month's money in one reporting currency (`--reporting-currency`; Documentation/Reports.md
/// "apple_payments.csv"): each day of `daily_money` converted at the rate of the paid fiscal month that holds it (a
/// day of a fiscal month not yet paid at the latest paid rate for its currency); a currency with no paid rate is left
/// unconverted and named. Apple's summaries give each region's rate into the bank's currency, so another reporting
/// currency goes through it (its own rate of the same fiscal month divides).
enum ReportingCurrencyReader {
    struct Rate {
        let fiscalMonth: String
        let text: String
        let numerator: Int64
        let denominator: Int64
    }

    static func read(in connection: any StoreConnection, requested: String?) throws -> (String?, [String: ConvertedMoney]) {
        var rates: [String: [String: Rate]] = [:]  // currency → fiscal month → rate
        var latestBank: (month: String, currency: String)?
        for row in try connection.rows(
            """
            select fiscal_month, currency, exchange_rate, bank_currency from apple_payments
            where exchange_rate is not null and bank_currency is not null
            order by fiscal_month, currency
            """)
        {
            let month = row[0].text ?? "", currency = row[1].text ?? "", text = row[2].text ?? ""
            guard let (numerator, denominator) = fraction(text) else { continue }
            rates[currency, default: [:]][month] = Rate(fiscalMonth: month, text: text, numerator: numerator, denominator: denominator)
            if latestBank.map({ $0.month <= month }) ?? true { latestBank = (month, row[3].text ?? "") }
        }
        guard let reporting = requested ?? latestBank?.currency, let bank = latestBank?.currency else { return (requested, [:]) }
        func rate(_ currency: String, day: String) -> Rate? {
            guard let byMonth = rates[currency], !byMonth.isEmpty else { return nil }
            if let fiscal = ReportDay(isoText: day).flatMap(AppleFiscalMonth.init(containing:)), let paid = byMonth[fiscal.text] {
                return paid
            }
            return byMonth[byMonth.keys.max()!]
        }
        var months: [String: ConvertedMoney] = [:]
        for row in try connection.rows(
            """
            select month, day, currency, gross_milli, refunded_milli, est_proceeds_milli, apple_proceeds_milli
            from daily_money order by day, currency
            """)
        {
            let month = row[0].text ?? "", day = row[1].text ?? "", currency = row[2].text ?? ""
            var money = months[month] ?? ConvertedMoney(currency: reporting)
            let amounts = (3...6).map { row[$0].integer ?? 0 }
            func convert(_ value: Int64) -> Int64? {
                if currency == reporting { return value }
                guard let own = rate(currency, day: day) else { return nil }
                var numerator = Int128(own.numerator), denominator = Int128(own.denominator)
                if reporting != bank {
                    // Through the bank's currency: divide by the reporting currency's own rate.
                    guard let target = rate(reporting, day: day) else { return nil }
                    numerator *= Int128(target.denominator)
                    denominator *= Int128(target.numerator)
                }
                let product = Int128(value) * numerator * 2
                let rounded = (product + (product >= 0 ? denominator : -denominator)) / (denominator * 2)
                return Int64(clamping: rounded)
            }
            let converted = amounts.map(convert)
            if converted.contains(where: { $0 == nil }) {
                if amounts.contains(where: { $0 != 0 }) { money.unconverted.insert(currency) }
            } else {
                money.grossMilli += converted[0]!
                money.refundedMilli += converted[1]!
                money.estimatedProceedsMilli += converted[2]!
                money.appleProceedsMilli += converted[3]!
                if currency != reporting, let used = rate(currency, day: day) {
                    money.ratesUsed.insert("\(currency) \(used.text) (fiscal \(used.fiscalMonth))")
                }
            }
            months[month] = money
        }
        return (reporting, months)
    }

    /// `1.08231` → (108231, 100000); nil for anything that is not a positive decimal.
    static func fraction(_ text: String) -> (Int64, Int64)? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int64(parts[0]) else { return nil }
        let decimals = parts.count == 2 ? String(parts[1]) : ""
        guard decimals.count <= 12, decimals.allSatisfy(\.isNumber) else { return nil }
        var denominator: Int64 = 1
        for _ in 0..<decimals.count { denominator *= 10 }
        let numerator = whole * denominator + (Int64(decimals) ?? 0)
        return numerator > 0 ? (numerator, denominator) : nil
    }
}
