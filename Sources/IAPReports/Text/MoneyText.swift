/// Milliunit amounts as people read them: `1234.56 USD`, rounded half away from zero to two decimals.
///
/// The CSV `_milli` columns stay the exact, authoritative figures; this rounding happens only at the Markdown edge.
/// Negative amounts use the minus sign U+2212, like every signed figure in the Markdown pages.
enum MoneyText {
    /// `1234.56 USD`, `−0.70 EUR`.
    static func amount(_ milli: Int64, currency: String) -> String {
        let (negative, cents) = roundedCents(milli)
        return (negative ? "−" : "") + units(cents) + " " + currency
    }

    /// `+12.50 USD` / `−3.00 USD` / `0.00 USD`: a change.
    static func signedAmount(_ milli: Int64, currency: String) -> String {
        let (negative, cents) = roundedCents(milli)
        let sign = cents == 0 ? "" : (negative ? "−" : "+")
        return sign + units(cents) + " " + currency
    }

    /// `1234.56` / `-3.5` style plain decimal for chart data (ASCII minus: Mermaid parses it).
    static func chartValue(_ milli: Int64) -> String {
        let (negative, cents) = roundedCents(milli)
        return (negative && cents > 0 ? "-" : "") + units(cents)
    }

    private static func roundedCents(_ milli: Int64) -> (negative: Bool, cents: UInt64) {
        let magnitude = milli.magnitude
        let cents = magnitude / 10 + (magnitude % 10 >= 5 ? 1 : 0)
        return (milli < 0, cents)
    }

    private static func units(_ cents: UInt64) -> String {
        let fraction = cents % 100
        return "\(cents / 100)." + (fraction < 10 ? "0\(fraction)" : "\(fraction)")
    }
}
