import IAPFormats

/// Apple's decimal amounts (`6.99`, `-6.99`, `980`, `1,234.50`) as exact integer milliunits: money never passes
/// through floating point (`6.99` is not a binary fraction).
public enum DecimalAmount {
    /// Why a text is not an amount, as a clause for a message.
    public enum Failure: Error, Equatable {
        case notANumber
        case tooPrecise
        case outOfRange

        /// What is wrong, as a clause for a message.
        public var clause: String {
            switch self {
            case .notANumber: return "not a number; thousands separators group exactly three digits"
            case .tooPrecise: return "more decimals than money has"
            case .outOfRange: return "too large to be an amount Apple reports"
            }
        }
    }

    /// The value in milliunits. Accepts an optional sign, digits with optional `,` thousands separators (groups of
    /// exactly three digits after the first: `1,234.50`, never `1,99` or `1,,9`), and at most three decimals (a fourth decimal is refused, not rounded: it is not money). `limit` bounds the magnitude
    /// so that sums over a year of rows stay inside 64 bits.
    public static func milliunits(_ text: String, limit: Int64) -> Result<Int64, Failure> {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        guard Self.hasWellFormedGroups(bytes) else { return .failure(.notANumber) }
        var sawDigit = false
        var inFraction = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                let digit = Int64(byte - UInt8(ascii: "0"))
                if inFraction {
                    guard fractionDigits < 3 else {
                        if digit == 0 { continue }  // trailing zeros past the third decimal change nothing
                        return .failure(.tooPrecise)
                    }
                    fraction = fraction * 10 + digit
                    fractionDigits += 1
                } else {
                    let (times10, overflowed) = whole.multipliedReportingOverflow(by: 10)
                    guard !overflowed, times10 + digit <= limit / 1_000 else { return .failure(.outOfRange) }
                    whole = times10 + digit
                }
            case UInt8(ascii: "."):
                guard !inFraction else { return .failure(.notANumber) }
                inFraction = true
            case UInt8(ascii: ","):
                guard !inFraction, sawDigit else { return .failure(.notANumber) }
            default:
                return .failure(.notANumber)
            }
        }
        guard sawDigit else { return .failure(.notANumber) }
        while fractionDigits < 3 {
            fraction *= 10
            fractionDigits += 1
        }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: 1_000)
        guard !overflow, scaled <= limit - fraction else { return .failure(.outOfRange) }
        let magnitude = scaled + fraction
        return .success(negative ? -magnitude : magnitude)
    }

    /// True when the `,` separators of the whole part, if any, split it into groups of exactly three digits after a
    /// first group of one to three.
    static func hasWellFormedGroups(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        let whole = bytes.prefix { $0 != UInt8(ascii: ".") }
        guard whole.contains(UInt8(ascii: ",")) else { return true }
        let groups = whole.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.count) else { return false }
        return groups.dropFirst().allSatisfy { $0.count == 3 }
    }

    /// A plain decimal (an exchange rate): an optional sign, digits, at most one point, kept as written; checked here
    /// only for its form, the value is the text.
    public static func decimal(_ text: String) -> Result<Double, Failure> {
        var bytes = Substring(text).utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard !bytes.isEmpty, parts.count <= 2, parts.contains(where: { !$0.isEmpty }), bytes.count <= 40,
            parts.allSatisfy({ $0.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }),
            let value = Double(text)
        else { return .failure(.notANumber) }
        return .success(value)
    }

    /// A whole number that may carry thousands separators in groups of exactly three (`1,204`): a payment summary's
    /// `Units Sold`.
    public static func groupedInteger(_ text: String, limit: Int64) -> Result<Int64, Failure> {
        guard hasWellFormedGroups(Substring(text).utf8[...]) else { return .failure(.notANumber) }
        return integer(String(text.filter { $0 != "," }), limit: limit)
    }

    /// A whole number (a `Quantity`): digits with an optional sign; a decimal point is refused, even `1.0`, since
    /// Apple counts units.
    public static func integer(_ text: String, limit: Int64) -> Result<Int64, Failure> {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        guard !bytes.isEmpty else { return .failure(.notANumber) }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                return .failure(byte == UInt8(ascii: ".") ? .tooPrecise : .notANumber)
            }
            let digit = Int64(byte - UInt8(ascii: "0"))
            guard value <= (limit - digit) / 10 else { return .failure(.outOfRange) }
            value = value * 10 + digit
        }
        return .success(negative ? -value : value)
    }
}
