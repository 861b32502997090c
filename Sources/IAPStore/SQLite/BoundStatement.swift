import Foundation
import GRDB
import GRDBSQLite

/// One of GRDB's cached prepared statements, bound and stepped through SQLite's C API.
///
/// Why not `Statement.execute(arguments:)`: ingest writes about a dozen rows of up to 32 columns per document,
/// and boxing every value as `any DatabaseValueConvertible` (plus the argument array around it) cost more CPU
/// than SQLite's own inserts. Binding typed values in place removes that, and nothing else changes: same
/// statements, same connection, same transaction.
struct BoundStatement {
    private let statement: Statement
    private let connection: SQLiteConnection?
    private var next: Int32 = 1

    /// The cached statement for `sql` on `db`.
    init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        connection = db.sqliteConnection
    }

    private var handle: SQLiteStatement { statement.sqliteStatement }

    mutating func bind(_ value: String?) {
        defer { next += 1 }
        guard let value else {
            sqlite3_bind_null(handle, next)
            return
        }
        // Nearly every string is stored as it is: SQLite copies its UTF-8 straight from the String's storage
        // (`SQLITE_TRANSIENT`), with no copy of the String (each copy is a retain and a release, and ingest binds about
        // sixty strings per document).
        let parameter = next
        let boundInPlace = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let base = bytes.baseAddress, memchr(base, 0, bytes.count) == nil else { return false }
            sqlite3_bind_text(
                handle, parameter, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                Self.transient)
            return true
        }
        if boundInPlace == true { return }
        // A NUL to replace (StoredText's rule), an empty string, or a bridged string without contiguous UTF-8.
        var text = StoredText.storable(value)
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else {
                sqlite3_bind_text(handle, next, "", 0, nil)
                return
            }
            // SQLITE_TRANSIENT: SQLite copies the text, which may not outlive this closure.
            sqlite3_bind_text(
                handle, next, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                Self.transient)
        }
    }

    mutating func bind(_ value: Int64?) {
        defer { next += 1 }
        if let value { sqlite3_bind_int64(handle, next, value) } else { sqlite3_bind_null(handle, next) }
    }

    mutating func bind(_ value: Int?) { bind(value.map(Int64.init)) }

    /// A closed vocabulary's value (``PayloadFormat``, ``TransactionSource``, ``DocumentKind``) as its text.
    mutating func bind<Value: RawRepresentable>(_ value: Value) where Value.RawValue == String { bind(value.rawValue) }

    mutating func bind(_ value: Bool?) { bind(value.map { $0 ? Int64(1) : 0 }) }

    /// Runs the statement with the values bound so far (a write: no rows expected), then resets it for reuse.
    /// - Returns: the number of rows it inserted, updated or deleted (0 for an ignored `INSERT OR IGNORE`).
    @discardableResult
    mutating func execute() throws -> Int {
        defer { reset() }
        assert(next - 1 == sqlite3_bind_parameter_count(handle), "every parameter is bound before each execute")
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else { throw error(code) }
        return connection.map { Int(sqlite3_changes($0)) } ?? 0
    }

    /// Runs a query with the values bound so far, handing each row to `body`, then resets it for reuse.
    mutating func forEachRow(_ body: (RowReader) throws -> Void) throws {
        defer { reset() }
        assert(next - 1 == sqlite3_bind_parameter_count(handle), "every parameter is bound before each query")
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code) }
            try body(RowReader(handle: handle))
        }
    }

    /// Ready for the next row. The bindings are not cleared: every execute binds every parameter again (checked
    /// in debug builds), so clearing them first would only write NULL into each one, for every row.
    private mutating func reset() {
        sqlite3_reset(handle)
        next = 1
    }

    private func error(_ code: Int32) -> DatabaseError {
        let message = connection.map { String(cString: sqlite3_errmsg($0)) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// The current row of a query, read by column position (0-based).
    struct RowReader {
        let handle: SQLiteStatement

        func string(_ column: Int32) -> String? {
            guard sqlite3_column_type(handle, column) != SQLITE_NULL, let text = sqlite3_column_text(handle, column)
            else { return nil }
            let count = Int(sqlite3_column_bytes(handle, column))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }

        func int64(_ column: Int32) -> Int64? {
            sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
        }

        func bool(_ column: Int32) -> Bool? { int64(column).map { $0 != 0 } }
    }
}
