import Foundation
import IAPFormats
public import IAPStore

/// The few template functions the model files use, in the spirit of dbt's `ref()`, `source()` and cross-database
/// macros: `{{ name(arguments) }}`, rendered for one ``SQLDialect``. Arguments are SQL text (quoted names for
/// `ref` and `source`), split at top-level commas.
///
/// | function | renders |
/// | --- | --- |
/// | `ref('model')` | the model's table or view, temporary or in the store's schema as the catalog says |
/// | `source('table')` | a store table (raw facts, `analysis_parameters`, `analysis_requested_months`) |
/// | `month_of_ms(ms)` | the UTC month `'YYYY-MM'` of a millisecond time |
/// | `utc_timestamp_of_ms(ms)` | `'YYYY-MM-DDTHH:MM:SSZ'` of a millisecond time |
/// | `month_after(month)` | the month after a `'YYYY-MM'` month |
/// | `day_start_ms(day)` | the first UTC millisecond of a `'YYYY-MM-DD'` day |
/// | `day_of_ms(ms)` | the UTC day `'YYYY-MM-DD'` of a millisecond time |
/// | `apple_offset_ms(ms)` | the UTC offset (ms) of Apple's reporting zone at that instant |
/// | `apple_day_of_ms(ms)` | the `'YYYY-MM-DD'` day of a millisecond time in Apple's reporting zone (`--apple-time-zone`), through the run's `analysis_time_zone_offsets` |
/// | `month_end_ms(month)` | the first millisecond after a `'YYYY-MM'` month |
/// | `string_agg(text, separator)` | the aggregate (or window function) joining text |
/// | `fixed_order_join` | an inner join the planner must take in the written order |
/// | `rule('name')` | a number of ``BusinessRules`` (`billing_retry_window_ms`, …) as an integer literal |
/// | `product_type('consumable')`, `churn_reason('…')`, `churn_type('…')`, `consumption_result('…')`, `consumption_outcome('…')` | the code as a string literal, checked against its Swift type |
/// | `consumption_results('final' or 'sent')` | the list of ``ConsumptionAnswerResult``s for `in (…)` |
/// | `churn_reason_of_intent(i)`, `churn_reason_of_expired_subtype(s)`, `expiration_intent_of_churn_reason(r)`, `churn_type_of_reason(r)` | the `case` of ``ChurnReason``'s mappings |
/// | `product_type_name(type)` | Apple's product `type` (or the reports' spelling) as the reports spell it, `unknown` for any other value, NULL for NULL: the CASE is written from ``ProductType`` |
///
/// The SQL each renders to is in ``SQLDialect``, the one place the engines differ (`product_type_name` is the same
/// on both).
public struct SQLTemplate: Sendable {
    public let dialect: SQLDialect
    /// The schema of the store's tables.
    public let schema: String

    /// Tables and views that are not where the catalog puts them, by name: the qualified name `ref` and `source`
    /// render instead. A build on several connections (``SQLModelScheduler``) places each model in the schema of the
    /// worker that built it and the parameter tables in the first worker's.
    public let placements: [String: String]

    /// Creates a renderer.
    public init(dialect: SQLDialect, schema: String, placements: [String: String] = [:]) {
        self.dialect = dialect
        self.schema = schema
        self.placements = placements
    }

    /// A template that cannot be rendered: an unknown function, a `ref` to no model, a wrong argument count.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// `sql` with every `{{ … }}` replaced.
    public func render(_ sql: String) throws(Failure) -> String {
        var output = ""
        var rest = Substring(sql)
        while let open = rest.range(of: "{{") {
            output += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw Failure(description: "a '{{' without its '}}'")
            }
            output += try call(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        output += rest
        return output
    }

    /// The model names a template reads through `ref()`, in order of appearance.
    public static func references(in sql: String) -> [String] {
        calls(in: sql).compactMap { call in
            call.name == "ref" ? call.arguments.first.map(unquoted) : nil
        }
    }

    private func sourceTable(_ name: String) -> String {
        placements[name] ?? dialect.storeTable(name, schema: schema)
    }

    private func call(_ text: String) throws(Failure) -> String {
        let call = Self.parse(text)
        func one() throws(Failure) -> String {
            guard call.arguments.count == 1 else {
                throw Failure(description: "\(call.name) takes one argument: {{\(text)}}")
            }
            return call.arguments[0]
        }
        switch call.name {
        case "ref":
            let name = Self.unquoted(try one())
            guard let model = SQLModelCatalog.model(named: name) else {
                throw Failure(description: "ref('\(name)') names no model of the catalog")
            }
            if let placed = placements[name] { return placed }
            return model.materialization.isTemporary
                ? dialect.temporaryTable(name) : dialect.storeTable(name, schema: schema)
        case "source":
            return sourceTable(Self.unquoted(try one()))
        case "month_of_ms":
            return dialect.monthOfMilliseconds(try one())
        case "utc_timestamp_of_ms":
            return dialect.utcTimestampOfMilliseconds(try one())
        case "day_start_ms":
            return dialect.dayStartMilliseconds(try one())
        case "apple_offset_ms", "apple_day_of_ms":
            // Apple's reporting zone: the UTC offset in force at that instant comes from the run's table of the
            // zone's offsets (written from the system's time-zone database), so both engines agree to the day
            // without either one's own zone data.
            let instant = try one()
            let offset =
                "(select offset_ms from \(sourceTable("analysis_time_zone_offsets")) "
                + "where from_ms <= (\(instant)) order by from_ms desc limit 1)"
            return call.name == "apple_offset_ms" ? offset : dialect.dayOfMilliseconds("(\(instant)) + \(offset)")
        case "day_of_ms":
            return dialect.dayOfMilliseconds(try one())
        case "month_after":
            return dialect.monthAfter(try one())
        case "month_end_ms":
            return dialect.monthEndMilliseconds(try one())
        case "string_agg":
            guard call.arguments.count == 2 else {
                throw Failure(description: "string_agg takes two arguments: {{\(text)}}")
            }
            return dialect.stringAggregate(call.arguments[0], call.arguments[1])
        case "fixed_order_join":
            return dialect.fixedOrderJoin
        case "product_type_name":
            return Self.productTypeName(try one())
        case "rule":
            let name = Self.unquoted(try one())
            guard let value = BusinessRules.byName[name] else {
                throw Failure(description: "rule('\(name)') names no business rule")
            }
            return String(value)
        case "product_type":
            return try Self.quoted(try one(), among: ProductType.allCases.map(\.reportName), what: "product type")
        case "churn_reason":
            return try Self.quoted(try one(), among: ChurnReason.allCases.map(\.rawValue), what: "churn reason")
        case "churn_type":
            return try Self.quoted(try one(), among: ChurnType.allCases.map(\.rawValue), what: "churn type")
        case "consumption_result":
            return try Self.quoted(
                try one(), among: ConsumptionAnswerResult.allCases.map(\.rawValue), what: "consumption result")
        case "consumption_outcome":
            return try Self.quoted(
                try one(), among: ConsumptionRequestOutcome.allCases.map(\.rawValue), what: "consumption outcome")
        case "consumption_results":
            guard let list = Self.resultLists[Self.unquoted(try one())] else {
                throw Failure(description: "consumption_results takes 'final' or 'sent': {{\(text)}}")
            }
            return ConsumptionAnswerResult.sqlList(of: list)
        case "churn_reason_of_intent":
            let branches = ChurnReason.allCases.filter { $0 != .unknown }.compactMap { reason in
                reason.expirationIntent.map { "when \($0) then '\(reason.rawValue)'" }
            }
            return "case (\(try one())) \(branches.joined(separator: " ")) else '\(ChurnReason.unknown.rawValue)' end"
        case "churn_reason_of_expired_subtype":
            let branches = ChurnReason.allCases.compactMap { reason in
                reason.expiredSubtype.map { "when '\($0)' then '\(reason.rawValue)'" }
            }
            return "case (\(try one())) \(branches.joined(separator: " ")) end"
        case "expiration_intent_of_churn_reason":
            let branches = ChurnReason.allCases.compactMap { reason in
                reason.expirationIntent.map { "when '\(reason.rawValue)' then \($0)" }
            }
            return "case (\(try one())) \(branches.joined(separator: " ")) end"
        case "churn_type_of_reason":
            let branches = ChurnReason.allCases.map { "when '\($0.rawValue)' then '\($0.churnType.rawValue)'" }
            return "case (\(try one())) \(branches.joined(separator: " ")) else '\(ChurnType.other.rawValue)' end"
        default:
            throw Failure(description: "unknown template function {{\(text)}}")
        }
    }

    private static let resultLists: [String: [ConsumptionAnswerResult]] = [
        "final": ConsumptionAnswerResult.final, "sent": ConsumptionAnswerResult.sent,
    ]

    /// `'value'` when `value` is one of `allowed`: a misspelt code fails the model instead of matching nothing.
    private static func quoted(_ argument: String, among allowed: [String], what: String) throws(Failure) -> String {
        let value = unquoted(argument)
        guard allowed.contains(value) else {
            throw Failure(description: "'\(value)' is no \(what) (\(allowed.joined(separator: ", ")))")
        }
        return "'\(value)'"
    }

    /// `case` from Apple's spelling and the reports' spelling (exact, as stored) to the reports' spelling.
    static func productTypeName(_ expression: String) -> String {
        let spellings =
            ProductType.allCases.map { ($0.rawValue, $0.reportName) }
            + ProductType.allCases.map { ($0.reportName, $0.reportName) }
        let branches = spellings.map { "when '\($0.0)' then '\($0.1)'" }.joined(separator: " ")
        return
            "case when (\(expression)) is null then null else case (\(expression)) \(branches) else 'unknown' end end"
    }

    private struct Call {
        let name: String
        let arguments: [String]
    }

    private static func calls(in sql: String) -> [Call] {
        var calls: [Call] = []
        var rest = Substring(sql)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            calls.append(parse(String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        return calls
    }

    /// `name(a, b)` → name and the arguments split at top-level commas (not inside parentheses or quotes).
    private static func parse(_ text: String) -> Call {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else {
            return Call(name: trimmed, arguments: [])
        }
        let name = String(trimmed[..<open]).trimmingCharacters(in: .whitespaces)
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        var arguments: [String] = []
        var current = ""
        var depth = 0
        var quote: Character?
        for character in inner {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
            } else if character == "," && depth == 0 {
                arguments.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                current = ""
                continue
            }
            current.append(character)
        }
        let last = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !last.isEmpty { arguments.append(last) }
        return Call(name: name, arguments: arguments)
    }

    private static func unquoted(_ text: String) -> String {
        text.trimmingCharacters(in: CharacterSet(charactersIn: "'\" "))
    }
}
