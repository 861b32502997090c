/// What the loaders, the model runner, the report readers and `status` need of a database connection, on either
/// engine: run SQL with bound values and read rows back. SQL is written with `?` placeholders; the PostgreSQL
/// connection numbers them (`$1`, `$2`, …) itself.
///
/// A connection is handed out by ``StoreEngine/read(_:)`` or ``StoreEngine/write(_:)`` for the duration of one
/// closure; it must not escape it.
public protocol StoreConnection {
    /// Which SQL dialect this connection speaks (``SQLDialect`` holds every difference).
    var dialect: SQLDialect { get }

    /// Runs one statement with `arguments` bound to its `?` placeholders.
    /// - Returns: how many rows it inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int

    /// Runs several `;`-separated statements without arguments (DDL, the models).
    func executeScript(_ sql: String) throws

    /// Runs a query and returns every row.
    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow]

    /// True when a table (or view) of this name exists in the store's schema.
    func tableExists(_ name: String) throws -> Bool
}

extension StoreConnection {
    /// Runs one statement without arguments.
    @discardableResult
    public func execute(_ sql: String) throws -> Int { try execute(sql, []) }

    /// Runs a query without arguments.
    public func rows(_ sql: String) throws -> [SQLRow] { try rows(sql, []) }

    /// The first row of a query, if any.
    public func row(_ sql: String, _ arguments: [SQLValue] = []) throws -> SQLRow? {
        try rows(sql, arguments).first
    }

    /// The first column of the first row (NULL when there is no row).
    public func value(_ sql: String, _ arguments: [SQLValue] = []) throws -> SQLValue {
        try rows(sql, arguments).first?.values.first ?? .null
    }

    /// The first column of the first row as an integer (nil for no row or NULL).
    public func integer(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int64? {
        try value(sql, arguments).integer
    }

    /// The first column of the first row as text (nil for no row or NULL).
    public func text(_ sql: String, _ arguments: [SQLValue] = []) throws -> String? {
        try value(sql, arguments).text
    }
}
