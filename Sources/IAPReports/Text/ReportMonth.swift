/// A `YYYY-MM` month parsed strictly, so that a month from the data can never name another folder.
struct ReportMonth: Equatable {
    let year: Int
    let month: Int

    /// Parses exactly four digits, `-`, two digits (01–12).
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[4] == UInt8(ascii: "-") else { return nil }
        let digits = bytes[0..<4] + bytes[5..<7]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let value = { (range: Range<Int>) in range.reduce(0) { $0 * 10 + Int(bytes[$1] - UInt8(ascii: "0")) } }
        year = value(0..<4)
        month = value(5..<7)
        guard (1...12).contains(month) else { return nil }
    }

    private init(year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// The calendar month before this one.
    var previous: ReportMonth {
        month == 1 ? ReportMonth(year: year - 1, month: 12) : ReportMonth(year: year, month: month - 1)
    }

    /// `YYYY-MM`.
    var text: String {
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + (month < 10 ? "-0" : "-")
            + String(month)
    }
}
