import GRDB

/// ``StoreConnection`` over one of GRDB's database accesses (valid inside the closure that handed it out).
struct SQLiteStoreConnection: StoreConnection {
    let db: Database

    init(_ db: Database) {
        self.db = db
    }

    var dialect: SQLDialect { .sqlite }

    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try db.execute(sql: sql, arguments: Self.arguments(arguments))
        return db.changesCount
    }

    func executeScript(_ sql: String) throws {
        try db.execute(sql: sql)
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow] {
        let rows = try Row.fetchAll(db, sql: sql, arguments: Self.arguments(arguments))
        guard let first = rows.first else { return [] }
        let columns = Array(first.columnNames)
        return rows.map { row in SQLRow(columns: columns, values: row.databaseValues.map(Self.value)) }
    }

    func tableExists(_ name: String) throws -> Bool {
        try db.tableExists(name) || db.viewExists(name)
    }

    private static func arguments(_ values: [SQLValue]) -> StatementArguments {
        // As optional existentials: GRDB's initializer for a sequence of `DatabaseValue` reads each through a key
        // path, which cost more than the inserts of Apple's financial reports (Documentation/Performance.md,
        // "Decoding counted in instructions").
        StatementArguments(
            values.map { value -> (any DatabaseValueConvertible)? in
                switch value {
                case .null: return DatabaseValue.null
                case .integer(let number): return number.databaseValue
                case .text(let text), .other(let text): return StoredText.storable(text).databaseValue
                }
            })
    }

    static func value(_ value: DatabaseValue) -> SQLValue {
        switch value.storage {
        case .null: return .null
        case .int64(let number): return .integer(number)
        case .string(let text): return .text(text)
        case .double(let number):
            // The models compute integers only; a double here would be a model bug, kept visible.
            return number.rounded() == number && abs(number) < 9e15 ? .integer(Int64(number)) : .other(String(number))
        case .blob: return .other("<blob>")
        }
    }
}
