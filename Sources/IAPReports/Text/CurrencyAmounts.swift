/// Amounts per currency in byte order of the code: a deterministic replacement for a dictionary in output.
struct CurrencyAmounts: Equatable {
    private(set) var entries: [(currency: String, milli: Int64)] = []

    /// Adds `milli` to the currency's total.
    mutating func add(_ milli: Int64, currency: String) {
        if let index = entries.firstIndex(where: { $0.currency == currency }) {
            entries[index].milli &+= milli
            return
        }
        let index = entries.firstIndex { currency.utf8.lexicographicallyPrecedes($0.currency.utf8) } ?? entries.count
        entries.insert((currency, milli), at: index)
    }

    /// Adds a money amount, leaving out `XXX` (``MoneyText/noCurrency``): unpriced transactions carry it with 0 in
    /// every money column, so a sum "0 XXX" would only say that nothing was priced. Counts use ``add(_:currency:)``.
    mutating func addMoney(_ milli: Int64, currency: String) {
        guard currency != MoneyText.noCurrency else { return }
        add(milli, currency: currency)
    }

    /// The amount of one currency (0 when absent).
    subscript(_ currency: String) -> Int64 {
        entries.first { $0.currency == currency }?.milli ?? 0
    }

    /// The currency codes, byte-ordered.
    var currencies: [String] {
        entries.map(\.currency)
    }

    /// Currency codes of both, byte-ordered, each once.
    static func unionOfCurrencies(_ lists: [CurrencyAmounts]) -> [String] {
        var all = CurrencyAmounts()
        for list in lists {
            for currency in list.currencies { all.add(0, currency: currency) }
        }
        return all.currencies
    }

    static func == (lhs: CurrencyAmounts, rhs: CurrencyAmounts) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.currency == $1.currency && $0.milli == $1.milli }
    }
}
