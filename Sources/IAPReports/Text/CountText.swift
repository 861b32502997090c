/// Counts as people read them on the pages: thousands grouped as the money beside them is (``MoneyText``), so
/// `48,101` reads at a glance where `48101` must be counted. CSV cells and chart data stay plain integers.
enum CountText {
    /// `7`, `48,101`, `−1,250`.
    static func count(_ value: Int64) -> String {
        (value < 0 ? "−" : "") + grouped(value.magnitude)
    }

    static func count(_ value: Int) -> String { count(Int64(value)) }

    /// `4,165 of 35,958`: a part and the base it is a part of.
    static func of(_ part: some BinaryInteger, _ whole: some BinaryInteger) -> String {
        count(Int64(clamping: part)) + " of " + count(Int64(clamping: whole))
    }

    /// `1234567` → `1,234,567`.
    static func grouped(_ value: UInt64) -> String {
        var digits = Array(String(value))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }
}
