/// Reads the optional reference files: the product catalog and the account mapping (Documentation/Reports.md, Common rules).
///
/// Both are CSV with a header row (RFC 4180, UTF-8, a byte-order mark tolerated). Columns may come in any order;
/// extra columns are ignored; header names are matched case-insensitively, ignoring surrounding spaces. Values are
/// trimmed of surrounding spaces. Blank lines are skipped. All bad rows are reported together in one error.
public enum ReferenceFiles {
    /// Reads `products.csv`: `product_id,type,currency,price_milli`.
    ///
    /// Checks that `product_id` is not empty, `type` is one of Apple's or the CSV spellings, `currency` is three
    /// upper-case letters and `price_milli` is a whole number ≥ 0. Rows keep file order (for V1, the first row of a
    /// product wins).
    /// - Throws: ``ReferenceFileError`` listing every problem (up to 20).
    public static func readProducts(at path: String) throws(ReferenceFileError) -> [ProductCatalogRow] {
        let table = try CSVTable.read(path: path)
        let columns = try resolveColumns(["product_id", "type", "currency", "price_milli"], table: table, file: path)
        var rows: [ProductCatalogRow] = []
        var problems: [ReferenceFileError.Problem] = []
        for record in table.records.dropFirst() where !isBlank(record) {
            var values = columns.map { value(record, $0) }
            let currencyText = values[2]
            // A currency code in lower case (`usd`) is the code: ISO 4217 writes it upper-case, as the payloads do.
            values[2] = currencyText.uppercased()
            var rowProblems: [String] = []
            if values[0].isEmpty { rowProblems.append("product_id is empty") }
            if ProductCatalogRow.csvType(for: values[1]) == nil {
                rowProblems.append(
                    "type \"\(values[1])\" is not a product type (use Auto-Renewable Subscription, Non-Renewing Subscription, Consumable or Non-Consumable)"
                )
            }
            if !isCurrencyCode(values[2]) {
                rowProblems.append("currency \"\(currencyText)\" is not a three-letter ISO 4217 code such as USD")
            }
            let price = parsePrice(values[3])
            if case .failure(let problem) = price { rowProblems.append(problem.text) }
            if rowProblems.isEmpty, case .success(let priceMilli) = price {
                rows.append(
                    ProductCatalogRow(
                        line: record.line, productId: values[0], type: values[1], currency: values[2],
                        priceMilli: priceMilli))
            } else {
                problems.append(.init(line: record.line, message: sentence(rowProblems)))
            }
        }
        guard problems.isEmpty else { throw ReferenceFileError(file: path, problems: problems) }
        return rows
    }

    /// Reads `accounts.csv`: `app_account_token,account_id`; both must be non-empty.
    ///
    /// The account ID is kept exactly as written (spaces and tabs included): ` =1+1` and `\t=1+1` are two accounts,
    /// as they are in the file. The token is trimmed: it is a UUID, compared lower-cased, and spaces around it are
    /// layout. A token may be listed again for the same account; for another account the file contradicts itself
    /// (which of the two made the purchases?), and the later line is a problem naming the earlier one.
    /// - Throws: ``ReferenceFileError`` listing every problem (up to 20).
    public static func readAccounts(at path: String) throws(ReferenceFileError) -> [AccountMappingRow] {
        let table = try CSVTable.read(path: path, keepSpaces: true)
        let columns = try resolveColumns(["app_account_token", "account_id"], table: table, file: path)
        var rows: [AccountMappingRow] = []
        var problems: [ReferenceFileError.Problem] = []
        var firstRows: [String: AccountMappingRow] = [:]
        for record in table.records.dropFirst() where !isBlank(record) {
            let token = value(record, columns[0])
            let account = columns[1] < record.fields.count ? record.fields[columns[1]] : ""
            var rowProblems: [String] = []
            if token.isEmpty { rowProblems.append("app_account_token is empty") }
            if trimmed(account).isEmpty { rowProblems.append("account_id is empty") }
            if rowProblems.isEmpty, let first = firstRows[token.lowercased()], first.accountId != account {
                rowProblems.append(
                    "app_account_token \(token) is mapped to \"\(account)\" here and to \"\(first.accountId)\" on line "
                        + "\(first.line); a token belongs to one account: keep the right row")
            }
            if rowProblems.isEmpty {
                let row = AccountMappingRow(line: record.line, appAccountToken: token, accountId: account)
                if firstRows[token.lowercased()] == nil { firstRows[token.lowercased()] = row }
                rows.append(row)
            } else {
                problems.append(.init(line: record.line, message: sentence(rowProblems)))
            }
        }
        guard problems.isEmpty else { throw ReferenceFileError(file: path, problems: problems) }
        return rows
    }

    /// Reads a reviews file: `account_id,decision,reviewed_at,reviewer,note`; `decision` one of `cleared`, `confirmed`,
    /// `watch`, in any case; `reviewed_at` ISO 8601 UTC and not after `now` (a decision is made in the past);
    /// `reviewer` and `note` may be empty. An account may have several rows: its history.
    /// - Throws: ``ReferenceFileError`` listing every bad row with its line (up to 20): nothing of the file is used.
    public static func readReviews(at path: String, now: Int64) throws(ReferenceFileError) -> [AccountReviewRow] {
        let table = try CSVTable.read(path: path, keepSpaces: true)
        let columns = try resolveColumns(
            ["account_id", "decision", "reviewed_at", "reviewer", "note"], table: table, file: path)
        var rows: [AccountReviewRow] = []
        var problems: [ReferenceFileError.Problem] = []
        for record in table.records.dropFirst() where !isBlank(record) {
            let account = columns[0] < record.fields.count ? record.fields[columns[0]] : ""
            let decisionText = value(record, columns[1])
            let timeText = value(record, columns[2])
            var rowProblems: [String] = []
            if trimmed(account).isEmpty { rowProblems.append("account_id is empty") }
            // Any case, as a spreadsheet capitalises it (`Cleared`); stored and shown lower-case.
            let decision = AccountReviewRow.Decision(rawValue: decisionText.lowercased())
            if decision == nil {
                rowProblems.append("decision is \"\(decisionText.prefix(40))\", not one of cleared, confirmed, watch")
            }
            let time = ISO8601Millis.parse(timeText)
            if time == nil {
                rowProblems.append(
                    "reviewed_at \"\(timeText.prefix(40))\" is not an ISO 8601 UTC time, e.g. 2026-10-03T12:00:00Z")
            } else if let time, time > now {
                rowProblems.append("reviewed_at \(timeText) is in the future: a decision is recorded once it is made")
            }
            if rowProblems.isEmpty, let decision, let time {
                rows.append(
                    AccountReviewRow(
                        line: record.line, accountId: account, decision: decision, reviewedAt: time,
                        reviewer: value(record, columns[3]), note: value(record, columns[4])))
            } else {
                problems.append(.init(line: record.line, message: sentence(rowProblems)))
            }
        }
        guard problems.isEmpty else { throw ReferenceFileError(file: path, problems: problems) }
        return rows
    }

    // MARK: - Helpers

    static func resolveColumns(_ required: [String], table: CSVTable, file: String) throws(ReferenceFileError) -> [Int]
    {
        guard let header = table.records.first else {
            let message = "the file is empty; the first line must be the header \(required.joined(separator: ","))."
            throw ReferenceFileError(file: file, problems: [.init(line: 1, message: message)])
        }
        let names = header.fields.map { trimmed($0).lowercased() }
        let positions = required.map { names.firstIndex(of: $0) }
        let missing = zip(required, positions).filter { $0.1 == nil }.map(\.0)
        guard missing.isEmpty else {
            let message =
                "the header lacks the column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")); "
                + "it must name \(required.joined(separator: ",")) (any order, extra columns allowed)."
            throw ReferenceFileError(file: file, problems: [.init(line: header.line, message: message)])
        }
        return positions.compactMap { $0 }
    }

    static func value(_ record: CSVTable.Record, _ column: Int) -> String {
        column < record.fields.count ? trimmed(record.fields[column]) : ""
    }

    public static func isBlank(_ record: CSVTable.Record) -> Bool {
        record.fields.allSatisfy { trimmed($0).isEmpty }
    }

    private static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(text[first...last])
    }

    private static func isCurrencyCode(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 3 && bytes.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    static func sentence(_ problems: [String]) -> String {
        problems.joined(separator: "; ") + "."
    }

    private struct PriceProblem: Error { let text: String }

    private static func parsePrice(_ text: String) -> Result<Int64, PriceProblem> {
        let bytes = Array(text.utf8)
        if !bytes.isEmpty, bytes.allSatisfy({ $0 &- Byte.zero < 10 }) {
            guard let value = Int64(text), AppStoreBounds.priceMilli.contains(value) else {
                return .failure(
                    PriceProblem(
                        text:
                            "price_milli \"\(text)\" is above \(AppStoreBounds.priceMilli.upperBound), more than any App Store "
                            + "price (milliunits: 1990 is 1.99)"))
            }
            return .success(value)
        }
        if bytes.first == Byte.minus, Int64(text) != nil {
            return .failure(PriceProblem(text: "price_milli \"\(text)\" is negative; prices are 0 or more milliunits"))
        }
        var hint = ""
        if let milli = decimalToMilli(bytes) { hint = " (write \(milli) for \(text))" }
        return .failure(PriceProblem(text: "price_milli \"\(text)\" is not an integer number of milliunits\(hint)"))
    }

    /// `1.99` → 1990, for the hint in the message; nil when the text is not a plain decimal with ≤ 3 decimals.
    private static func decimalToMilli(_ bytes: [UInt8]) -> Int64? {
        guard let dot = bytes.firstIndex(of: Byte.dot) else { return nil }
        let whole = bytes[..<dot]
        let fraction = bytes[(dot + 1)...]
        guard !whole.isEmpty, whole.count <= 15, fraction.count <= 3, whole.allSatisfy({ $0 &- Byte.zero < 10 }),
            fraction.allSatisfy({ $0 &- Byte.zero < 10 }),
            let units = Int64(String(decoding: whole, as: UTF8.self))
        else { return nil }
        var milli: Int64 = 0
        for position in 0..<3 {
            let digit = position < fraction.count ? Int64(fraction[fraction.startIndex + position] - Byte.zero) : 0
            milli = milli * 10 + digit
        }
        return units * 1000 + milli
    }
}
