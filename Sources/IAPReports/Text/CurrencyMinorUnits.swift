/// How many decimals a currency's amounts have (ISO 4217 minor units): 0 for JPY or KRW, 3 for KWD, 2 for most.
///
/// Apple's prices are milliunits of the currency, so 3 decimals are the most any amount can hold exactly. A code
/// ISO does not list here gets 2, like most currencies; `XXX` (no currency: unpriced) gets 0, its amounts are 0.
enum CurrencyMinorUnits {
    /// ISO 4217 currencies without minor units, App Store storefront currencies among them (JPY, KRW, CLP, VND …).
    static let none: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF",
        "XOF", "XPF", "XXX",
    ]

    /// ISO 4217 currencies with three decimals.
    static let three: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

    /// The number of decimals shown for the currency.
    static func decimals(_ currency: String) -> Int {
        if none.contains(currency) { return 0 }
        if three.contains(currency) { return 3 }
        return 2
    }
}
