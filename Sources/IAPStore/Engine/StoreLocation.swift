import Foundation

/// Where a store is, as `--database` names it: a SQLite file path (the default engine), or a `postgres://` /
/// `postgresql://` URL naming a PostgreSQL database and, with `?schema=`, the schema inside it.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresURL)

    /// Parses a `--database` value.
    /// - Throws: ``StoreError/invalidLocation(_:reason:)`` for a PostgreSQL URL iaplens cannot use.
    /// - Throws: ``StoreError/invalidLocation(_:reason:)`` also for anything else that looks like a URL
    ///   (`scheme://`, spaces around it or not): taken as a file path, it would create a SQLite file named after the
    ///   URL, and messages would print its password.
    public init(_ text: String) throws(StoreError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if Self.isPostgres(text) {
            self = .postgres(try PostgresURL(trimmed))
        } else if Self.looksLikeURL(trimmed) {
            throw .invalidLocation(
                PostgresURL.redact(trimmed),
                reason:
                    "it looks like a URL but is not a PostgreSQL URL iaplens reads: write postgres://… or postgresql://… "
                    + "(libpq's form), or give a file path for a SQLite store")
        } else if let url = Self.urlForKeywordValue(trimmed) {
            // libpq's other form, `host=… dbname=…`: taken as a path, it would create a SQLite file of that name.
            let redacted = trimmed.replacingOccurrences(
                of: #"(?i)password\s*=\s*('[^']*'|\S*)"#, with: "password=***", options: .regularExpression)
            throw .invalidLocation(
                "\"\(redacted)\"",
                reason: "it is a libpq key=value connection string; iaplens takes PostgreSQL as a URL: \(url)"
                    + (trimmed.contains("password")
                        ? " (the password as user:password@, or in PGPASSWORD or ~/.pgpass)" : ""))
        } else if trimmed.hasPrefix("?") || trimmed.isEmpty {
            // `--database "$URL?schema=app"` with the variable unset or empty: taken as a path, it would create a
            // SQLite file named `?schema=app` in the working folder and run there, silently, on an empty store.
            throw .invalidLocation(
                "\"\(PostgresURL.redact(trimmed))\"",
                reason: trimmed.isEmpty
                    ? "it is empty; give a file path or a postgres:// URL (an unset variable?)"
                    : "it is only the query of a URL, without postgres://user@host/database before it (an unset variable?)"
            )
        } else {
            self = .sqlite(path: text)
        }
    }

    /// True for a `postgres://` or `postgresql://` value (spaces around it allowed).
    public static func isPostgres(_ text: String) -> Bool {
        let lowered = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// The URL of a libpq key=value connection string (`host=db port=5432 dbname=app user=etl`), its password left
    /// out; nil when `text` does not start with one of libpq's keys and `=`, as no store path does.
    static func urlForKeywordValue(_ text: String) -> String? {
        let keys = [
            "host", "hostaddr", "port", "dbname", "user", "password", "service", "sslmode", "passfile", "options",
        ]
        guard let pairs = keywordValuePairs(text), let first = pairs.first, keys.contains(first.key) else { return nil }
        let values = Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        var url = "postgres://"
        if let user = values["user"] { url += user + "@" }
        url += values["host"] ?? values["hostaddr"] ?? "localhost"
        if let port = values["port"] { url += ":" + port }
        url += "/" + (values["dbname"] ?? values["user"] ?? "postgres")
        let query = pairs.filter { !["user", "host", "hostaddr", "port", "dbname", "password"].contains($0.key) }
        if !query.isEmpty { url += "?" + query.map { "\($0.key)=\($0.value)" }.joined(separator: "&") }
        return url
    }

    /// `key=value key='quoted value'` as libpq splits it (a backslash escapes a quote or a backslash); nil when the
    /// text is not of that form.
    static func keywordValuePairs(_ text: String) -> [(key: String, value: String)]? {
        var pairs: [(key: String, value: String)] = []
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0.isWhitespace }
            guard !rest.isEmpty else { break }
            guard let equals = rest.firstIndex(of: "="), !rest[..<equals].contains(where: \.isWhitespace) else {
                return nil
            }
            let key = rest[..<equals].lowercased()
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0 == "_" }) else { return nil }
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            var value = ""
            if rest.first == "'" {
                rest = rest.dropFirst()
                var closed = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if character == "\\", let next = rest.first {
                        value.append(next); rest = rest.dropFirst(); continue
                    }
                    if character == "'" { closed = true; break }
                    value.append(character)
                }
                guard closed else { return nil }
            } else {
                value = String(rest.prefix { !$0.isWhitespace })
                rest = rest.dropFirst(value.count)
            }
            pairs.append((key, value))
        }
        return pairs.isEmpty ? nil : pairs
    }

    /// `scheme://…`: a letter, then letters, digits, `+`, `-` or `.`, then `://`.
    static func looksLikeURL(_ text: String) -> Bool {
        guard let range = text.range(of: "://") else { return false }
        let scheme = text[..<range.lowerBound]
        guard let first = scheme.unicodeScalars.first, CharacterSet.letters.contains(first) else { return false }
        return scheme.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }

    /// For messages and `status`: never contains a password.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url): return url.redacted
        }
    }

    /// Opens (creating and migrating if needed) the store.
    public func open() throws -> any StoreEngine {
        switch self {
        case .sqlite(let path): return try SQLiteStore(path: path)
        case .postgres(let url): return try PostgresStore(url: url)
        }
    }

    /// Runs `body` on the store opened as ``open()`` opens it or, where this user may only read a SQLite store (a
    /// folder it cannot write: `status` run by a monitoring account, a read-only mount), opened read-only
    /// (``SQLiteStore/readingOnly(path:_:)``).
    public func reading<T>(_ body: (any StoreEngine) throws -> T) throws -> T {
        guard case .sqlite(let path) = self else { return try body(try open()) }
        let store: SQLiteStore
        do {
            store = try SQLiteStore(path: path)
        } catch .storageReadOnly {
            return try SQLiteStore.readingOnly(path: path, body)
        }
        return try body(store)
    }

    /// Takes the store's run lock: one run at a time per store (a `flock` beside a SQLite file, an advisory lock on
    /// PostgreSQL). Released when the returned object is released, or by the kernel / server when the process dies.
    /// - Throws: ``StoreError/busy(holder:)`` when another run holds it.
    public func lockForRun(command: String) throws -> any StoreRunLock {
        switch self {
        case .sqlite(let path): return try SQLiteRunLock(databasePath: path, command: command)
        case .postgres(let url): return try PostgresRunLock(url: url, command: command)
        }
    }

    /// True when a run holds the store's run lock now; never takes it (``lockForRun(command:)`` does).
    public func isRunLockHeld() throws -> Bool {
        switch self {
        case .sqlite(let path): return SQLiteRunLock.isHeld(databasePath: path)
        case .postgres(let url): return try PostgresRunLock.isHeld(url: url)
        }
    }

    /// Removes the run lock's file beside a SQLite store that does not exist (a lock taken to look, on a mistyped
    /// path); nothing otherwise.
    public func removeUnusedRunLock() {
        // A path this user may not look along is left alone: a store may be there.
        guard case .sqlite(let path) = self, (try? Self.holdsAStore(path)) == false else { return }
        try? FileManager.default.removeItem(atPath: SQLiteRunLock.realPath(path) + ".lock")
    }

    /// True when a store exists there already (a file that holds anything, or a schema holding iaplens's tables);
    /// never creates one.
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when this user may not look along the file's path: whether a
    ///   store is there cannot be told, and "no store" would send them to make one.
    public func storeExists() throws -> Bool {
        switch self {
        case .sqlite(let path): return try Self.holdsAStore(path)
        case .postgres(let url): return try PostgresStore.exists(url: url)
        }
    }

    /// Whether the file at `path` exists and holds anything. SQLite takes an empty file for an empty database, so
    /// an empty file (`touch store.sqlite`, a mistyped path that names one) is no store: `status`, `analyze` and
    /// `report` say so instead of making one of it, and only `ingest`, `run` and `fetch` create a store there.
    /// Links are followed, as SQLite follows them: a link to nothing, or to an empty file, holds no store.
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when a folder on the path may not be searched by this user.
    private static func holdsAStore(_ path: String) throws(StoreError) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == EACCES {
                throw .cannotOpen(path: path, reason: "permission denied: this user may not open a folder on its path")
            }
            return false
        }
        return status.st_size > 0
    }
}
