import CLibPQ
import Foundation

/// One connection to a PostgreSQL server through libpq, the reference C client: it reads the URL, `PGPASSWORD`,
/// `~/.pgpass` and `sslmode` exactly as `psql` does, speaks COPY, and is synchronous like the rest of the
/// pipeline. Not thread-safe: ``PostgresStore`` hands it to one caller at a time.
final class PostgresConnection: StoreConnection, @unchecked Sendable {
    // @unchecked: used by one thread at a time (PostgresStore's lock); libpq connections may move between threads.
    private let handle: OpaquePointer
    /// The URL without its password, for messages.
    let displayName: String
    /// Removes the password from a message of libpq's.
    private let scrub: @Sendable (String) -> String

    /// Connects, and points unqualified names at `schema` (created if missing when `createSchema`).
    init(connectionString: String, displayName: String, scrub: @escaping @Sendable (String) -> String = { $0 })
        throws(StoreError)
    {
        self.displayName = displayName
        self.scrub = scrub
        guard let handle = PQconnectdb(connectionString) else {
            throw .cannotOpen(path: displayName, reason: "libpq could not allocate a connection")
        }
        self.handle = handle
        guard PQstatus(handle) == CONNECTION_OK else {
            // The handle is released by deinit, which runs for a failed init once every property is set: releasing it
            // here too freed it twice.
            if PQconnectionNeedsPassword(handle) == 1 {
                // libpq says so itself, in any server language: configuration (64), which a rerun cannot mend.
                throw .invalidLocation(
                    displayName,
                    reason:
                        "the server asks for a password and none was given; put it in the URL (postgres://user:password@…), "
                        + "in PGPASSWORD or in ~/.pgpass")
            }
            throw .cannotOpen(path: displayName, reason: scrub(Self.clean(String(cString: PQerrorMessage(handle)))))
        }
    }

    deinit {
        PQfinish(handle)
    }

    var dialect: SQLDialect { .postgres }

    // MARK: - StoreConnection

    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        let result = try run(sql, arguments)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    func executeScript(_ sql: String) throws {
        // The simple query protocol runs several statements in one call (no parameters).
        guard let result = PQexec(handle, sql) else { throw connectionError(sql) }
        defer { PQclear(result) }
        try check(result, sql)
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow] {
        let result = try run(sql, arguments)
        defer { PQclear(result) }
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
        let types = (0..<columnCount).map { PQftype(result, $0) }
        var rows: [SQLRow] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(.null)
                    continue
                }
                let text = String(cString: PQgetvalue(result, row, column))
                values.append(Self.value(text, type: types[Int(column)]))
            }
            rows.append(SQLRow(columns: columns, values: values))
        }
        return rows
    }

    func tableExists(_ name: String) throws -> Bool {
        try value("SELECT to_regclass(?) IS NOT NULL", [.text(dialect.quoted(currentSchema) + "." + name)]).bool
            ?? false
    }

    /// The first schema of the search path: the store's.
    private(set) var currentSchema = "public"

    /// Makes `schema` the store's schema for every unqualified name from now on.
    func use(schema: String) throws {
        try executeScript("SET search_path TO \(dialect.quoted(schema))")
        currentSchema = schema
    }

    // MARK: - COPY

    /// Streams rows into `table` with `COPY … FROM STDIN` (text format): the bulk path, one round trip for a
    /// whole batch instead of one per row.
    func copy(into table: String, columns: [String], _ fill: (inout CopyTextEncoder) -> Void) throws {
        var encoder = CopyTextEncoder()
        fill(&encoder)
        guard encoder.rowCount > 0 else { return }
        let sql = "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN"
        guard let start = PQexec(handle, sql) else { throw connectionError(sql) }
        let startStatus = PQresultStatus(start)
        if startStatus != PGRES_COPY_IN {
            defer { PQclear(start) }
            try check(start, sql)
            throw StoreError.queryFailed(reason: "COPY did not start: \(sql)")
        }
        PQclear(start)
        let sent = encoder.bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                PQputCopyData(handle, chars.baseAddress, Int32(chars.count))
            }
        }
        let ended = PQputCopyEnd(handle, sent == 1 ? nil : "client could not send the rows")
        var failure: (any Error)?
        while let result = PQgetResult(handle) {
            do { try check(result, sql) } catch { failure = failure ?? error }
            PQclear(result)
        }
        if let failure { throw failure }
        guard sent == 1, ended == 1 else { throw connectionError(sql) }
    }

    // MARK: - Running statements

    /// Sends a statement with its arguments (`?` numbered `$1`, `$2`, … here) and returns the successful result.
    private func run(_ sql: String, _ arguments: [SQLValue]) throws -> OpaquePointer {
        let text = arguments.isEmpty ? sql : Self.numberingPlaceholders(sql)
        // Integers are sent as int8 and text as text, so a parameter in a select list still has a type.
        let types: [Oid] = arguments.map { value in
            switch value {
            case .integer: return 20
            case .text, .other: return 25
            case .null: return 0
            }
        }
        let strings: [String?] = arguments.map { value in
            switch value {
            case .null: return nil
            case .integer(let number): return String(number)
            case .text(let text), .other(let text): return StoredText.storable(text)
            }
        }
        let result = withCStrings(strings) { pointers in
            PQexecParams(handle, text, Int32(arguments.count), types, pointers, nil, nil, 0)
        }
        guard let result else { throw connectionError(sql) }
        do {
            try check(result, sql)
        } catch {
            PQclear(result)
            throw error
        }
        return result
    }

    private func check(_ result: OpaquePointer, _ sql: String) throws {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN:
            return
        default:
            let message = scrub(Self.clean(String(cString: PQresultErrorMessage(result))))
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? "?"
            let reason = "\(message) (SQLSTATE \(state)) in: \(Self.abbreviated(sql))"
            switch state {
            case "42501":
                throw StoreError.permissionDenied(path: displayName, reason: reason, grant: Self.grant(for: message))
            case "53100": throw StoreError.storageFull(path: displayName, reason: reason)
            case "25006": throw StoreError.storageReadOnly(path: displayName, reason: reason)
            default: throw StoreError.queryFailed(reason: reason)
            }
        }
    }

    /// The statement that gives what a privilege error (SQLSTATE 42501) says is missing, from the server's message:
    /// `permission denied for schema s`, `permission denied for table t`, `must be owner of table t`, ….
    static func grant(for message: String) -> String {
        func object(after marker: String) -> String? {
            guard let range = message.range(of: marker) else { return nil }
            let rest = message[range.upperBound...].prefix { !$0.isWhitespace && $0 != "," && $0 != ")" }
            return rest.isEmpty ? nil : String(rest).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
        if let schema = object(after: "permission denied for schema ") {
            return "GRANT USAGE, CREATE ON SCHEMA \(schema) TO <this role>"
        }
        if let table = object(after: "permission denied for table ") ?? object(after: "permission denied for relation ")
        {
            return "GRANT SELECT, INSERT, UPDATE, DELETE ON \(table) TO <this role> (or ALL TABLES IN SCHEMA <schema>)"
        }
        if let sequence = object(after: "permission denied for sequence ") {
            return "GRANT USAGE, SELECT, UPDATE ON SEQUENCE \(sequence) TO <this role>"
        }
        if let database = object(after: "permission denied for database ") {
            return "GRANT CREATE, TEMPORARY ON DATABASE \(database) TO <this role>"
        }
        if let table = object(after: "must be owner of table ") ?? object(after: "must be owner of relation ") {
            return
                "ALTER TABLE \(table) OWNER TO <this role> (iaplens rebuilds its tables, which only their owner may; or run it as the store's owner)"
        }
        if let schema = object(after: "must be owner of schema ") {
            return "ALTER SCHEMA \(schema) OWNER TO <this role>"
        }
        return
            "GRANT USAGE, CREATE ON SCHEMA <schema> TO <this role>, and make this role the owner of the store's tables"
    }

    private func connectionError(_ sql: String) -> StoreError {
        let message = scrub(Self.clean(String(cString: PQerrorMessage(handle))))
        return .queryFailed(
            reason: "the connection to \(displayName) failed: \(message) (in: \(Self.abbreviated(sql)))")
    }

    // MARK: - Helpers

    /// `?` placeholders numbered as PostgreSQL wants them; a `?` inside quotes or a comment is left alone.
    static func numberingPlaceholders(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        var inComment = false
        var previous: Character = " "
        for character in sql {
            if inComment {
                if character == "\n" { inComment = false }
            } else if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "-" && previous == "-" {
                inComment = true
            } else if character == "?" {
                number += 1
                output += "$\(number)"
                previous = character
                continue
            }
            output.append(character)
            previous = character
        }
        return output
    }

    static func value(_ text: String, type: Oid) -> SQLValue {
        switch type {
        case 20, 21, 23:  // int8, int2, int4
            return Int64(text).map(SQLValue.integer) ?? .other(text)
        case 16:  // bool
            return .integer(text == "t" ? 1 : 0)
        case 1700:  // numeric: sum() of bigint; a whole number is an integer
            return Int64(text).map(SQLValue.integer) ?? .other(text)
        case 700, 701:  // float4, float8
            if let number = Double(text), number.rounded() == number, abs(number) < 9e15 {
                return .integer(Int64(number))
            }
            return .other(text)
        default:
            return .text(text)
        }
    }

    /// libpq's message on one line: its newlines and tabs become single spaces.
    private static func clean(_ message: String) -> String {
        message.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private static func abbreviated(_ sql: String) -> String {
        let flat = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return flat.count > 160 ? String(flat.prefix(160)) + "…" : flat
    }
}

/// Runs `body` with C strings for `strings` (NULL for nil), valid only inside it.
private func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } ?? nil }
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers.map { $0.map { UnsafePointer($0) } })
}
