/// Milliunit amounts as people read them, in the currency's own minor units and with thousands grouped as Apple's
/// payment summaries write them: `1,234.56 USD`, `5,100 JPY`, `1.250 KWD`, rounded half away from zero to the last
/// decimal the currency has.
///
/// The CSV `_milli` columns stay the exact, authoritative figures; this rounding happens only at the page edge.
/// Negative amounts use the minus sign U+2212, like every signed figure on the pages.
enum MoneyText {
    /// ISO 4217's code for "no currency": the currency of unpriced transactions (a V1 transaction whose product
    /// `products.csv` does not list), whose money columns hold 0 (REPORTS.md, Amount).
    static let noCurrency = "XXX"

    /// `1,234.56 USD`, `−0.70 EUR`, `5,100 JPY`; `—` for ``noCurrency``, whose amounts are not known.
    static func amount(_ milli: Int64, currency: String) -> String {
        guard currency != noCurrency else { return "—" }
        let (negative, units) = rounded(milli, currency: currency)
        return (negative ? "−" : "") + number(units, currency: currency, grouped: true) + " " + currency
    }

    /// `+12.50 USD` / `−3,000.00 USD` / `0.00 USD`: a change.
    static func signedAmount(_ milli: Int64, currency: String) -> String {
        guard currency != noCurrency else { return "—" }
        let (negative, units) = rounded(milli, currency: currency)
        let sign = units == 0 ? "" : (negative ? "−" : "+")
        return sign + number(units, currency: currency, grouped: true) + " " + currency
    }

    /// `1234.56` / `-3.5` style plain decimal for chart data (ASCII minus, no grouping: Mermaid parses it).
    static func chartValue(_ milli: Int64, currency: String) -> String {
        let (negative, units) = rounded(milli, currency: currency)
        return (negative && units > 0 ? "-" : "") + number(units, currency: currency)
    }

    /// The magnitude in the currency's smallest unit, rounded half away from zero.
    private static func rounded(_ milli: Int64, currency: String) -> (negative: Bool, units: UInt64) {
        let divisor = divisor(currency)
        let magnitude = milli.magnitude
        let units = magnitude / divisor + (magnitude % divisor >= (divisor + 1) / 2 && divisor > 1 ? 1 : 0)
        return (milli < 0, units)
    }

    /// Milliunits per smallest unit: 1000 for JPY, 10 for USD, 1 for KWD.
    static func divisor(_ currency: String) -> UInt64 {
        switch CurrencyMinorUnits.decimals(currency) {
        case 0: 1000
        case 3: 1
        default: 10
        }
    }

    private static func number(_ units: UInt64, currency: String, grouped: Bool = false) -> String {
        let decimals = CurrencyMinorUnits.decimals(currency)
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let whole = grouped ? CountText.grouped(units / scale) : String(units / scale)
        guard decimals > 0 else { return whole }
        let fraction = String(units % scale)
        return whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
