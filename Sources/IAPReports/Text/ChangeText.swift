import IAPAnalytics

/// How a headline figure moved since the previous month, in the words a reader expects:
/// `+3 (+25.0 %)`, `−12.50 USD (−4.2 %)`, `new` (nothing before), `no change`, `+5.0 pp` for rates.
enum ChangeText {
    /// Change of a count: in percent too only from a base of at least 10 (Documentation/Reports.md "Provisional
    /// months"), else as a difference alone.
    static func count(current: Int64, previous: Int64) -> String {
        if let word = special(current: current, previous: previous) { return word }
        guard previous.magnitude >= UInt64(ProvisionalMonth.percentBase) else { return signed(current &- previous) }
        return signed(current &- previous) + " (" + relativePercent(current: current, previous: previous) + ")"
    }

    /// Change of an amount in one currency.
    static func money(current: Int64, previous: Int64, currency: String) -> String {
        if let word = special(current: current, previous: previous) { return word }
        let difference = MoneyText.signedAmount(current &- previous, currency: currency)
        // A base of at least 10 units of the currency.
        guard previous.magnitude >= UInt64(ProvisionalMonth.percentBase) * 1_000 else { return difference }
        return difference + " (" + relativePercent(current: current, previous: previous) + ")"
    }

    /// Change of a rate, in percentage points; `n/a` when either month has no base.
    static func rate(current: Int64?, previous: Int64?) -> String {
        guard let current, let previous else { return "n/a" }
        let delta = current - previous
        return delta == 0 ? "no change" : signedTenths(delta) + " pp"
    }

    /// `+3`, `−1,250`, `0`.
    static func signed(_ value: Int64) -> String {
        value > 0 ? "+" + CountText.count(value) : CountText.count(value)
    }

    /// A rate in tenths of a percent, `recovered / of`, rounded half away from zero; nil when `of` is below the
    /// minimum base (``BusinessRules/minimumRateBase``): then the counts are shown alone, and no point or change is made.
    static func rateTenths(_ part: Int64, of whole: Int64) -> Int64? {
        guard whole >= BusinessRules.minimumRateBase else { return nil }
        return roundedQuotient(part, times: 1000, over: whole)
    }

    /// `62.5 %` from tenths.
    static func percent(tenths: Int64) -> String {
        unsignedTenths(tenths) + " %"
    }

    // MARK: - Private

    private static func special(current: Int64, previous: Int64) -> String? {
        if current == previous { return "no change" }
        if previous == 0 { return "new" }
        return nil
    }

    /// Relative change against the magnitude of the previous value (a previous negative net revenue is a base too).
    private static func relativePercent(current: Int64, previous: Int64) -> String {
        let tenths = roundedQuotient(current &- previous, times: 1000, over: Int64(clamping: previous.magnitude))
        return signedTenths(tenths) + " %"
    }

    private static func signedTenths(_ tenths: Int64) -> String {
        (tenths > 0 ? "+" : tenths < 0 ? "−" : "") + unsignedTenths(tenths)
    }

    private static func unsignedTenths(_ tenths: Int64) -> String {
        let magnitude = tenths.magnitude
        return "\(magnitude / 10).\(magnitude % 10)"
    }

    /// `value × factor / divisor` rounded half away from zero, without overflow for any realistic amount.
    private static func roundedQuotient(_ value: Int64, times factor: Int64, over divisor: Int64) -> Int64 {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        guard !overflow else { return value / divisor * factor }
        let quotient = product / divisor
        let remainder = (product % divisor).magnitude
        guard remainder * 2 >= divisor.magnitude else { return quotient }
        return product < 0 ? quotient - 1 : quotient + 1
    }
}
