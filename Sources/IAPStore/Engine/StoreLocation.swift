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
                reason: "it looks like a URL but is not a PostgreSQL URL iaplens reads: write postgres://… or postgresql://… "
                    + "(libpq's form), or give a file path for a SQLite store")
        } else if trimmed.hasPrefix("?") || trimmed.isEmpty {
            // `--database "$URL?schema=app"` with the variable unset or empty: taken as a path, it would create a
            // SQLite file named `?schema=app` in the working folder and run there, silently, on an empty store.
            throw .invalidLocation(
                "\"\(PostgresURL.redact(trimmed))\"",
                reason: trimmed.isEmpty
                    ? "it is empty; give a file path or a postgres:// URL (an unset variable?)"
                    : "it is only the query of a URL, without postgres://user@host/database before it (an unset variable?)")
        } else {
            self = .sqlite(path: text)
        }
    }

    /// True for a `postgres://` or `postgresql://` value (spaces around it allowed).
    public static func isPostgres(_ text: String) -> Bool {
        let lowered = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// `scheme://…`: a letter, then letters, digits, `+`, `-` or `.`, then `://`.
    static func looksLikeURL(_ text: String) -> Bool {
        guard let range = text.range(of: "://") else { return false }
        let scheme = text[..<range.lowerBound]
        guard let first = scheme.unicodeScalars.first, CharacterSet.letters.contains(first) else { return false }
        return scheme.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0)) }
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

    /// Takes the store's run lock: one run at a time per store (a `flock` beside a SQLite file, an advisory lock on
    /// PostgreSQL). Released when the returned object is released, or by the kernel / server when the process dies.
    /// - Throws: ``StoreError/busy(holder:)`` when another run holds it.
    public func lockForRun(command: String) throws -> any StoreRunLock {
        switch self {
        case .sqlite(let path): return try SQLiteRunLock(databasePath: path, command: command)
        case .postgres(let url): return try PostgresRunLock(url: url, command: command)
        }
    }

    /// Removes the run lock's file beside a SQLite store that does not exist (a lock taken to look, on a mistyped
    /// path); nothing otherwise.
    public func removeUnusedRunLock() {
        guard case .sqlite(let path) = self, !FileManager.default.fileExists(atPath: path) else { return }
        try? FileManager.default.removeItem(atPath: SQLiteRunLock.realPath(path) + ".lock")
    }

    /// True when a store exists there already (a file, or a schema holding iaplens's tables); never creates one.
    public func storeExists() throws -> Bool {
        switch self {
        case .sqlite(let path): return FileManager.default.fileExists(atPath: path)
        case .postgres(let url): return try PostgresStore.exists(url: url)
        }
    }
}
