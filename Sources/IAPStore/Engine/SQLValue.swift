/// One value crossing the store boundary, as both engines can hold it: the models compute integers and text only
/// (money in milliunits, times in Unix milliseconds), so there is no floating-point case to round differently.
public enum SQLValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case text(String)
    /// A value neither integer nor text (a SQLite REAL, a PostgreSQL numeric with a fraction): kept as its text
    /// so a model bug shows up in a report instead of being rounded away.
    case other(String)

    /// An integer, or nil for NULL, text that is no integer, or another value.
    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The text, or nil for anything else.
    public var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// A truth value: a non-zero integer (SQLite's booleans; PostgreSQL's arrive converted).
    public var bool: Bool? { integer.map { $0 != 0 } }

    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .text(let value), .other(let value): return value
        }
    }
}

extension SQLValue {
    /// `value` or NULL.
    public init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
    /// `value` or NULL.
    public init(_ value: Int64?) { self = value.map(SQLValue.integer) ?? .null }
    /// `value` or NULL.
    public init(_ value: Int?) { self = value.map { SQLValue.integer(Int64($0)) } ?? .null }
    /// 1, 0 or NULL: both engines' boolean columns accept the integer (PostgreSQL reads `'1'` as true).
    public init(_ value: Bool?) { self = value.map { SQLValue.integer($0 ? 1 : 0) } ?? .null }
}

/// One result row: values by position, and the column names to find them by name.
public struct SQLRow: Sendable {
    public let columns: [String]
    public let values: [SQLValue]

    /// Creates a row.
    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value at `index`.
    public subscript(index: Int) -> SQLValue { values[index] }

    /// The value of the column named `name` (NULL when there is none).
    public subscript(name: String) -> SQLValue {
        guard let index = columns.firstIndex(of: name) else { return .null }
        return values[index]
    }
}
