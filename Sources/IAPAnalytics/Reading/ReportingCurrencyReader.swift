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

        /// The bank currency's rate into itself.
        static let one = Rate(fiscalMonth: "", text: "1", numerator: 1, denominator: 1)
    }

    /// The paid rates Apple's summaries give, and the conversion of an amount of a day into the reporting currency.
    struct Converter {
        let reporting: String
        let bank: String
        /// Currency → fiscal month → rate into the bank's currency.
        let rates: [String: [String: Rate]]

        /// The rate of the paid fiscal month that holds `day`, else the latest paid one of the currency.
        func rate(_ currency: String, day: String) -> Rate? {
            if let fiscal = ReportDay(isoText: day).flatMap(AppleFiscalMonth.init(containing:)),
                let paid = rates[currency]?[fiscal.text]
            {
                return paid
            }
            return latestRate(currency)
        }

        /// The rates ``convert(_:currency:day:)`` uses for `currency` on `day`, each written `GBP 1.26410 (fiscal
        /// 2025-11)`: the currency's own rate into the bank's currency and, for a reporting currency other than the
        /// bank's, the reporting currency's, which divides. Empty for the reporting currency itself.
        func ratesUsed(_ currency: String, day: String) -> [String] {
            guard currency != reporting else { return [] }
            return ([currency] + (reporting != bank ? [reporting] : [])).compactMap { code in
                rate(code, day: day).map { "\(code) \($0.text) (fiscal \($0.fiscalMonth))" }
            }
        }

        /// The bank's currency when the reporting currency is another one, so that a page says what the rates
        /// are into; nil when they are into the reporting currency itself.
        var through: String? { reporting == bank ? nil : bank }

        /// The currencies a figure can be converted into: the bank's, and each one a paid summary gives a rate for.
        var reachable: Set<String> { Set(rates.keys).union([bank]) }

        /// The latest paid rate of the currency.
        func latestRate(_ currency: String) -> Rate? {
            rates[currency].flatMap { byMonth in byMonth.keys.max().flatMap { byMonth[$0] } }
        }

        /// `value` milliunits of `currency` on `day` in the reporting currency, rounded half away from zero; nil
        /// when a rate it needs is missing.
        func convert(_ value: Int64, currency: String, day: String) -> Int64? {
            if currency == reporting { return value }
            // The bank's own currency converts into itself at 1, whether or not a region paid in it gives that rate.
            guard let own = rate(currency, day: day) ?? (currency == bank ? Rate.one : nil) else { return nil }
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

        /// The sum, in the reporting currency, of stakes written `CUR:milli;…` (the mart's `stakes_by_currency`),
        /// each converted at the rate of `day`; nil when the text is empty, malformed, or a rate it needs is missing.
        func sum(stakesByCurrency text: String, day: String) -> Int64? {
            guard !text.isEmpty else { return nil }
            var total: Int64 = 0
            for part in text.split(separator: ";") {
                let pieces = part.split(separator: ":")
                guard pieces.count == 2, let value = Int64(pieces[1]),
                    let inReporting = convert(value, currency: String(pieces[0]), day: day)
                else { return nil }
                let (sum, overflow) = total.addingReportingOverflow(inReporting)
                total = overflow ? (inReporting > 0 ? .max : .min) : sum
            }
            return total
        }
    }

    /// The converter for `requested` (nil: the bank currency of the latest paid summary), or nil when no paid summary
    /// gives a rate.
    static func converter(in connection: any StoreConnection, requested: String?) throws -> Converter? {
        var rates: [String: [String: Rate]] = [:]
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
            rates[currency, default: [:]][month] = Rate(
                fiscalMonth: month, text: text, numerator: numerator, denominator: denominator)
            if latestBank.map({ $0.month <= month }) ?? true { latestBank = (month, row[3].text ?? "") }
        }
        guard let reporting = requested ?? latestBank?.currency, let bank = latestBank?.currency else { return nil }
        return Converter(reporting: reporting, bank: bank, rates: rates)
    }

    /// A sentence when `--reporting-currency` names a currency nothing converts into: no paid summary pays in it or
    /// gives a rate for it (a typo, or a currency Apple does not pay this app in). Nil when it converts, or was not
    /// asked for.
    static func unreachable(in connection: any StoreConnection, requested: String?) throws -> String? {
        guard let requested else { return nil }
        guard let converter = try converter(in: connection, requested: requested) else {
            return "--reporting-currency \(requested) converts nothing: no paid payment summary is loaded, and the "
                + "rates come from them (App Store Connect, Payments and Financial Reports)."
        }
        let reachable = converter.reachable
        guard !reachable.contains(requested) else { return nil }
        let choices = [converter.bank] + reachable.subtracting([converter.bank]).sorted()
        return "--reporting-currency \(requested) converts nothing: Apple's paid payment summaries pay in "
            + "\(converter.bank) and give rates into it for \(choices.dropFirst().joined(separator: ", ")) only, so "
            + "every figure stays in its own currency; choose one of \(choices.joined(separator: ", "))."
    }

    static func read(in connection: any StoreConnection, requested: String?) throws -> (
        String?, [String: ConvertedMoney]
    ) {
        guard let converter = try converter(in: connection, requested: requested) else { return (requested, [:]) }
        let reporting = converter.reporting
        var months: [String: ConvertedMoney] = [:]
        for row in try connection.rows(
            """
            select month, day, currency, gross_milli, refunded_milli, est_proceeds_milli, apple_proceeds_milli
            from daily_money order by day, currency
            """)
        {
            let month = row[0].text ?? "", day = row[1].text ?? "", currency = row[2].text ?? ""
            var money = months[month] ?? ConvertedMoney(currency: reporting, through: converter.through)
            let amounts = (3...6).map { row[$0].integer ?? 0 }
            let converted = amounts.compactMap { converter.convert($0, currency: currency, day: day) }
            if converted.count < amounts.count {
                if amounts.contains(where: { $0 != 0 }) { money.unconverted.insert(currency) }
            } else {
                money.grossMilli += converted[0]
                money.refundedMilli += converted[1]
                money.estimatedProceedsMilli += converted[2]
                money.appleProceedsMilli += converted[3]
                money.ratesUsed.formUnion(converter.ratesUsed(currency, day: day))
            }
            months[month] = money
        }
        try addMRR(to: &months, converter, in: connection)
        return (reporting, months)
    }

    /// A milliunit of each currency in the bank currency at its latest paid rate (the bank currency 1); empty without
    /// a paid summary. For ranking currencies only: every figure converts exactly, through ``Converter``.
    static func weights(in connection: any StoreConnection) throws -> [String: Double] {
        guard let converter = try converter(in: connection, requested: nil) else { return [:] }
        var weights = [converter.bank: 1.0]
        for currency in converter.rates.keys {
            guard let rate = converter.latestRate(currency) else { continue }
            weights[currency] = Double(rate.numerator) / Double(rate.denominator)
        }
        return weights
    }

    /// Each month's MRR (`mrr.csv`, every product) in the reporting currency: each currency at the rate of the day the
    /// base is counted on, the month's last day (the day of T for the month of T), as the review queue's stakes.
    static func addMRR(
        to months: inout [String: ConvertedMoney], _ converter: Converter, in connection: any StoreConnection
    ) throws {
        let asOfDay = try connection.integer("select as_of_ms from analysis_parameters").map {
            ISO8601Millis.format($0).prefix(10)
        }
        for row in try connection.rows(
            "select month, currency, sum(mrr_milli) from mrr group by month, currency order by month, currency")
        {
            let month = row[0].text ?? "", currency = row[1].text ?? "", amount = row[2].integer ?? 0
            guard let lastDay = CalendarMonth(month).map({ ISO8601Millis.format($0.endMs - 1).prefix(10) }) else {
                continue
            }
            let day = String(min(lastDay, asOfDay ?? lastDay))
            var money = months[month] ?? ConvertedMoney(currency: converter.reporting, through: converter.through)
            if let converted = converter.convert(amount, currency: currency, day: day) {
                let (sum, overflow) = (money.mrrMilli ?? 0).addingReportingOverflow(converted)
                money.mrrMilli = overflow ? .max : sum
                money.mrrRatesUsed.formUnion(converter.ratesUsed(currency, day: day))
            } else if amount != 0 {
                money.mrrUnconverted.insert(currency)
            }
            months[month] = money
        }
    }

    /// `flagged_accounts.csv` in the reporting currency in effect (Documentation/Reports.md "The review queue"):
    /// `--reporting-currency`, else the bank currency of the latest paid summary, as the pages' money figures. Each
    /// account's money at stake in every currency (`stakes_by_currency` of the mart, `CUR:milli;…`), converted at the
    /// rate of the month's last day and summed, in the reporting currency. A row with a currency no paid summary gives
    /// a rate for keeps its main currency's figure, unconverted. With no paid summary the rows are as the mart wrote
    /// them.
    static func convertingStakes(
        _ months: [MonthReport], in connection: any StoreConnection, requested: String?
    ) throws -> [MonthReport] {
        guard let converter = try converter(in: connection, requested: requested) else { return months }
        var stakes: [String: [String: String]] = [:]  // month → account → stakes_by_currency
        for row in try connection.rows("select month, account_id, stakes_by_currency from flagged_accounts") {
            stakes[row[0].text ?? "", default: [:]][row[1].text ?? ""] = row[2].text ?? ""
        }
        return months.map { month in
            guard let lastDay = CalendarMonth(month.month).map({ ISO8601Millis.format($0.endMs - 1).prefix(10) }) else {
                return month
            }
            let tables = month.tables.map { table -> ReportTable in
                guard table.name == "flagged_accounts.csv", let account = table.columns.firstIndex(of: "account_id"),
                    let amount = table.columns.firstIndex(of: "at_stake_milli"),
                    let currency = table.columns.firstIndex(of: "at_stake_currency")
                else { return table }
                var converted = table
                for index in converted.rows.indices {
                    guard case .text(let id) = converted.rows[index][account],
                        let text = stakes[month.month]?[id],
                        let total = converter.sum(stakesByCurrency: text, day: String(lastDay))
                    else { continue }
                    converted.rows[index][amount] = .integer(total)
                    converted.rows[index][currency] = .text(converter.reporting)
                }
                return converted
            }
            return MonthReport(
                month: month.month, tables: tables, flaggedTimelines: month.flaggedTimelines, isEmpty: month.isEmpty)
        }
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
