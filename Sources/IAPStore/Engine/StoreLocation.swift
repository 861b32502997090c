import Foundation

/// Where a store is, as `--database` names it: a SQLite file path (the default engine), or a `postgres://` /
/// `postgresql://` URL naming a PostgreSQL database and, with `?schema=`, the schema inside it.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresURL)

    /// Parses a `--database` value.
    /// - Throws: ``StoreError/invalidLocation(_:reason:)`` for a PostgreSQL URL iaplens cannot use.
    public init(_ text: String) throws(StoreError) {
        if Self.isPostgres(text) {
            self = .postgres(try PostgresURL(text))
        } else {
            self = .sqlite(path: text)
        }
    }

    /// True for a `postgres://` or `postgresql://` value.
    public static func isPostgres(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
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

    /// True when a store exists there already (a file, or a schema holding iaplens's tables); never creates one.
    public func storeExists() throws -> Bool {
        switch self {
        case .sqlite(let path): return FileManager.default.fileExists(atPath: path)
        case .postgres(let url): return try PostgresStore.exists(url: url)
        }
    }
}
