import IAPFormats

extension FinancialReportReader {
    /// The header row: where each column is. A line naming at least three of the required columns is taken as the
    /// header (so a report with a renamed or missing column is refused with its name, not mistaken for another
    /// file); a report needs all of them.
    struct Header {
        /// Column positions by lower-cased name (the first column of a name wins).
        let positions: [String: Int]
        let names: [String]
        let missing: [String]
        /// Required columns the header names more than once: which of the two is the report's cannot be told.
        let repeated: [String]
        /// The positions of the columns no required name claims, in order: a row's other columns. Worked out once
        /// here, not for every row (a set of the required names and two lower-casings per cell cost about as much as
        /// reading the row; Documentation/Performance.md, "Decoding counted in instructions").
        let otherPositions: [Int]

        init?(_ cells: [String]) {
            var positions: [String: Int] = [:]
            var names: [String] = []
            for (index, cell) in cells.enumerated() {
                let name = FinancialReportReader.trimmed(cell)
                names.append(name)
                if positions[name.lowercased()] == nil { positions[name.lowercased()] = index }
            }
            let required = FinancialReportReader.requiredColumns
            let found = required.filter { positions[$0.lowercased()] != nil }
            guard found.count >= 3 else { return nil }
            self.positions = positions
            self.names = names
            missing = required.filter { positions[$0.lowercased()] == nil }
            repeated = required.filter { name in names.count { $0.lowercased() == name.lowercased() } > 1 }
            let used = Set(required.map { $0.lowercased() })
            otherPositions = names.indices.filter { !used.contains(names[$0].lowercased()) }
        }

        /// Why this header cannot be a report's, or nil when it can.
        var refusal: String? {
            if !missing.isEmpty {
                return
                    "its header row lacks the column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) (a FINANCE_DETAIL report names \(FinancialReportReader.requiredColumns.joined(separator: ", ")))"
            }
            if !repeated.isEmpty {
                return
                    "its header row names \(repeated.joined(separator: ", ")) twice, so which column holds the report's figures cannot be told"
            }
            return nil
        }

        /// A row problem, as a sentence.
        struct Problem: Error {
            let message: String
        }

        /// The typed row, or what is wrong with it.
        func row(_ cells: [String], line: Int) -> Result<FinancialReportRow, Problem> {
            if cells.count < names.count {
                return .failure(
                    Problem(
                        message:
                            "The row has \(cells.count) tab-separated cells where the header names \(names.count) columns."
                    ))
            }
            if cells.count > names.count,
                cells[names.count...].contains(where: { !FinancialReportReader.trimmed($0).isEmpty })
            {
                return .failure(
                    Problem(
                        message:
                            "The row has \(cells.count) tab-separated cells where the header names \(names.count) columns."
                    ))
            }
            // Every required column is there (a header with one missing is refused before any row is read), so no
            // cell reads as empty for want of its column.
            func cell(_ name: String) -> String {
                positions[name.lowercased()].map { FinancialReportReader.trimmed(cells[$0]) } ?? ""
            }
            do {
                let date = try day(cell("Transaction Date"), "Transaction Date")
                let settlementText = cell("Settlement Date")
                let settlement = settlementText.isEmpty ? nil : try day(settlementText, "Settlement Date")
                let sku = try text(cell("SKU"), "SKU")
                let type = try text(cell("Product Type Identifier"), "Product Type Identifier")
                let country = try text(cell("Country of Sale"), "Country of Sale")
                let quantity = try whole(cell("Quantity"), "Quantity", limit: FinancialReportBounds.quantity)
                let share = try money(cell("Partner Share"), "Partner Share", limit: FinancialReportBounds.priceMilli)
                let extended = try money(
                    cell("Extended Partner Share"), "Extended Partner Share", limit: FinancialReportBounds.extendedMilli
                )
                let shareCurrency = try currency(cell("Partner Share Currency"), "Partner Share Currency")
                let price = try money(cell("Customer Price"), "Customer Price", limit: FinancialReportBounds.priceMilli)
                let customerCurrency = try currency(cell("Customer Currency"), "Customer Currency")
                let kind = cell("Sale or Return").uppercased()
                guard kind == "S" || kind == "R" else {
                    throw Problem(message: "Sale or Return is \"\(cell("Sale or Return").prefix(40))\", not S or R.")
                }
                guard kind == "S" ? quantity > 0 : quantity < 0 else {
                    throw Problem(
                        message:
                            "Quantity is \(quantity) on \(kind == "S" ? "a sale (S): a sale's quantity is positive" : "a return (R): a return's quantity is negative")."
                    )
                }
                let (expected, shareOverflow) = share.multipliedReportingOverflow(by: quantity)
                guard !shareOverflow, expected == extended else {
                    throw Problem(
                        message:
                            "Extended Partner Share is \(cell("Extended Partner Share").prefix(40)), not Partner Share × Quantity (\(cell("Partner Share").prefix(40)) × \(quantity))."
                    )
                }
                let (amount, overflow) = price.magnitude.multipliedReportingOverflow(by: quantity.magnitude)
                guard !overflow, amount <= UInt64(FinancialReportBounds.extendedMilli) else {
                    throw Problem(
                        message:
                            "Customer Price × Quantity is beyond what one report row can hold (\(FinancialReportBounds.extendedText))."
                    )
                }
                let others = otherPositions.map { (name: names[$0], value: cells[$0]) }
                return .success(
                    FinancialReportRow(
                        line: line, transactionDate: date, settlementDate: settlement, sku: sku,
                        productTypeIdentifier: type,
                        countryOfSale: country, quantity: quantity, partnerShareMilli: share,
                        extendedPartnerShareMilli: extended,
                        partnerShareCurrency: shareCurrency, customerPriceMilli: price,
                        customerCurrency: customerCurrency,
                        saleOrReturn: kind, otherColumns: others))
            } catch let problem as Problem {
                return .failure(problem)
            } catch {
                return .failure(Problem(message: "\(error)"))
            }
        }

        private func quoted(_ value: String) -> String { "\"\(value.prefix(40))\(value.count > 40 ? "…" : "")\"" }

        private func day(_ value: String, _ column: String) throws -> ReportDay {
            guard let day = ReportDay(appleText: value) else {
                throw Problem(message: "\(column) is \(quoted(value)), not a day MM/DD/YYYY between 2008 and 2099.")
            }
            return day
        }

        private func text(_ value: String, _ column: String) throws -> String {
            guard !value.isEmpty else { throw Problem(message: "\(column) is empty.") }
            return value
        }

        private func currency(_ value: String, _ column: String) throws -> String {
            guard value.utf8.count == 3, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
            else {
                throw Problem(message: "\(column) is \(quoted(value)), not an ISO 4217 code of three capital letters.")
            }
            return value
        }

        private func whole(_ value: String, _ column: String, limit: Int64) throws -> Int64 {
            switch DecimalAmount.integer(value, limit: limit) {
            case .success(let number): return number
            case .failure(.tooPrecise):
                throw Problem(message: "\(column) is \(quoted(value)): units are whole numbers.")
            case .failure(.outOfRange):
                throw Problem(
                    message:
                        "\(column) is \(quoted(value)), outside what one report row holds (at most \(limit) units).")
            case .failure(.notANumber): throw Problem(message: "\(column) is \(quoted(value)), not a whole number.")
            }
        }

        private func money(_ value: String, _ column: String, limit: Int64) throws -> Int64 {
            switch DecimalAmount.milliunits(value, limit: limit) {
            case .success(let number): return number
            case .failure(.tooPrecise):
                throw Problem(
                    message: "\(column) is \(quoted(value)): more than three decimals is not an amount of money.")
            case .failure(.outOfRange):
                throw Problem(
                    message:
                        "\(column) is \(quoted(value)), outside what one report row holds (\(FinancialReportBounds.text(limit)))."
                )
            case .failure(.notANumber): throw Problem(message: "\(column) is \(quoted(value)), not a decimal amount.")
            }
        }
    }
}

/// The ranges a row of a real financial report stays in: wide, and narrow enough that a year of rows sums inside
/// 64 bits of milliunits.
public enum FinancialReportBounds {
    /// Units in one aggregate row (one product, day, country and price): ten million.
    public static let quantity: Int64 = 10_000_000
    /// A unit price or partner share: 10^12 milliunits, as for transaction prices (`AppStoreBounds.priceMilli`).
    public static let priceMilli: Int64 = AppStoreBounds.priceMilli.upperBound
    /// An extended amount (price × units): 10^15 milliunits; nine thousand such rows still sum inside 64 bits.
    public static let extendedMilli: Int64 = 1_000_000_000_000_000

    /// Units in one report, all rows together: a trillion.
    public static let fileUnits: Int64 = 1_000_000_000_000
    /// Customer amounts and partner shares of one report, all rows together, in milliunits: a trillion units of a
    /// currency; nine thousand reports at the bound still sum inside 64 bits.
    public static let fileMilli: Int64 = 1_000_000_000_000_000

    static var extendedText: String { text(extendedMilli) }

    static var fileText: String { "at most \(fileMilli / 1_000) units of currency and \(fileUnits) units sold" }

    static func text(_ limit: Int64) -> String {
        "at most \(limit / 1_000) units of its currency either way"
    }
}
