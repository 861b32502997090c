import Foundation

/// Every difference between the SQL of the two store engines, in one place.
///
/// The models (`Sources/IAPAnalytics/SQL`) and the Swift-side queries are written once, in the SQL that SQLite 3.40
/// and PostgreSQL 15 share: CTEs (`materialized` / `not materialized`), window functions, `filter (where …)` on
/// aggregates, `true` / `false`, `on conflict`. What they do not share is spelled through this type: the model files
/// call it as template functions (`{{ month_of_ms(expires_at_ms) }}`, see ``SQLTemplate``), Swift code calls
/// the methods. Three rules keep the shared part honest on both engines:
/// - booleans are never summed or mixed with integers: `count(*) filter (where flag)`, `coalesce(flag, false)`,
///   `case when flag then 1 else 0 end`;
/// - integer literals that do not fit 32 bits are written out (`5184000000`, 60 days in ms), because
///   PostgreSQL multiplies two 32-bit literals in 32 bits;
/// - text is compared byte by byte: SQLite's default, and on PostgreSQL every text column of the store is
///   declared `collate "C"` (so derived text inherits it) and the date functions below return `collate "C"`
///   text; reports sort with ``binaryCollation``.
public enum SQLDialect: String, Sendable, CaseIterable {
    case sqlite
    case postgres

    // MARK: - Names

    /// A table or view of the store (raw facts, marts, run parameters), qualified so that a CTE of the same name
    /// cannot shadow it.
    public func storeTable(_ name: String, schema: String) -> String {
        switch self {
        case .sqlite: return "main.\(name)"
        case .postgres: return "\(quoted(schema)).\(name)"
        }
    }

    /// A temporary table or view of this connection.
    public func temporaryTable(_ name: String) -> String {
        switch self {
        case .sqlite: return "temp.\(name)"
        case .postgres: return "pg_temp.\(name)"
        }
    }

    /// `name` as a quoted identifier.
    public func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The collation that orders text by its bytes (UTF-8 code point order), as the contract's sorts require.
    public var binaryCollation: String {
        switch self {
        case .sqlite: return "binary"
        case .postgres: return "\"C\""
        }
    }

    // MARK: - Types

    /// A 64-bit integer column.
    public var integerType: String {
        switch self {
        case .sqlite: return "integer"
        case .postgres: return "bigint"
        }
    }

    /// A text column that compares by bytes.
    public var textType: String {
        switch self {
        case .sqlite: return "text"
        case .postgres: return "text collate \"C\""
        }
    }

    /// What follows a `create table (…)` of a table iaplens defines column by column.
    public var tableSuffix: String {
        switch self {
        case .sqlite: return " strict"
        case .postgres: return ""
        }
    }

    // MARK: - Dates (every timestamp is Unix milliseconds; every month is 'YYYY-MM' in UTC)

    /// The UTC month `'YYYY-MM'` of a millisecond timestamp (NULL stays NULL).
    public func monthOfMilliseconds(_ expression: String) -> String {
        switch self {
        case .sqlite: return "strftime('%Y-%m', (\(expression)) / 1000.0, 'unixepoch')"
        case .postgres:
            return "to_char(to_timestamp((\(expression)) / 1000.0) at time zone 'UTC', 'YYYY-MM') collate \"C\""
        }
    }

    /// The UTC time `'YYYY-MM-DDTHH:MM:SSZ'` of a millisecond timestamp, milliseconds dropped.
    public func utcTimestampOfMilliseconds(_ expression: String) -> String {
        switch self {
        case .sqlite: return "strftime('%Y-%m-%dT%H:%M:%SZ', (\(expression)) / 1000.0, 'unixepoch')"
        case .postgres:
            return
                "to_char(to_timestamp((\(expression)) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') collate \"C\""
        }
    }

    /// The UTC day `'YYYY-MM-DD'` of a millisecond timestamp (NULL stays NULL).
    public func dayOfMilliseconds(_ expression: String) -> String {
        switch self {
        case .sqlite: return "strftime('%Y-%m-%d', (\(expression)) / 1000.0, 'unixepoch')"
        case .postgres:
            return "to_char(to_timestamp((\(expression)) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD') collate \"C\""
        }
    }

    /// The first millisecond (UTC) of a `'YYYY-MM-DD'` day.
    public func dayStartMilliseconds(_ day: String) -> String {
        switch self {
        case .sqlite: return "cast(strftime('%s', (\(day))) as integer) * 1000"
        case .postgres: return "cast(extract(epoch from to_date((\(day)), 'YYYY-MM-DD')) as bigint) * 1000"
        }
    }

    /// The month after a `'YYYY-MM'` month.
    public func monthAfter(_ month: String) -> String {
        switch self {
        case .sqlite: return "strftime('%Y-%m', (\(month)) || '-01', '+1 month')"
        case .postgres:
            return "to_char(to_date((\(month)) || '-01', 'YYYY-MM-DD') + interval '1 month', 'YYYY-MM') collate \"C\""
        }
    }

    /// The first millisecond after a `'YYYY-MM'` month (the exclusive end of its window).
    public func monthEndMilliseconds(_ month: String) -> String {
        switch self {
        case .sqlite: return "cast(strftime('%s', (\(month)) || '-01', '+1 month') as integer) * 1000"
        case .postgres:
            return
                "cast(extract(epoch from to_date((\(month)) || '-01', 'YYYY-MM-DD') + interval '1 month') as bigint) * 1000"
        }
    }

    // MARK: - Functions and clauses

    /// Text values joined by `separator`, as an aggregate or window function (order from the window).
    public func stringAggregate(_ expression: String, _ separator: String) -> String {
        switch self {
        case .sqlite: return "group_concat(\(expression), \(separator))"
        case .postgres: return "string_agg(\(expression), \(separator))"
        }
    }

    /// An inner join that the planner must take in the written order. SQLite keeps the order of a
    /// `cross join … on`; PostgreSQL has no `on` for a cross join and plans joins by its statistics.
    public var fixedOrderJoin: String {
        switch self {
        case .sqlite: return "cross join"
        case .postgres: return "inner join"
        }
    }

    /// What `drop … if exists` adds so that dependent views go too (PostgreSQL refuses to drop a view another
    /// view reads; SQLite does not track them).
    public var dropCascade: String {
        switch self {
        case .sqlite: return ""
        case .postgres: return " cascade"
        }
    }

    /// `create index` for `table (columns)`: SQLite names a temporary index by its schema, PostgreSQL puts an
    /// index beside its table and refuses a qualified index name.
    public func createIndex(_ name: String, on table: String, temporary: Bool, columns: [String], unique: Bool)
        -> String
    {
        let kind = unique ? "create unique index" : "create index"
        let list = columns.joined(separator: ", ")
        switch self {
        case .sqlite:
            return temporary
                ? "\(kind) \(temporaryTable(name)) on \(table) (\(list))" : "\(kind) \(name) on \(table) (\(list))"
        case .postgres:
            return "\(kind) \(name) on \(temporary ? temporaryTable(table) : table) (\(list))"
        }
    }

    /// What `create … as` makes for a table a model-building worker shares with the others (a scratch table, gone
    /// after the build): PostgreSQL's are unlogged, as nothing in them must survive a crash.
    public var scratchTable: String {
        switch self {
        case .sqlite: return "table"
        case .postgres: return "unlogged table"
        }
    }

    /// `create [unique] index` named `name` on `table`, both in `schema` (a worker's, for a build on several
    /// connections).
    public func createIndex(
        _ name: String, on table: String, inSchema schema: String, columns: [String], unique: Bool
    ) -> String {
        let kind = unique ? "create unique index" : "create index"
        let list = columns.joined(separator: ", ")
        switch self {
        case .sqlite: return "\(kind) \(schema).\(name) on \(table) (\(list))"
        case .postgres: return "\(kind) \(name) on \(schema).\(table) (\(list))"
        }
    }

    /// What refreshes the planner's statistics of a table just built (PostgreSQL plans joins by them; a new
    /// temporary table has none until analysed). Nil when the engine needs nothing.
    public func analyzeTable(_ table: String) -> String? {
        switch self {
        case .sqlite: return nil
        case .postgres: return "analyze \(table)"
        }
    }
}
