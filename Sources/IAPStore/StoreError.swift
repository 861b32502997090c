/// Failures of the store as a whole (not of one document: those are quarantined).
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database file could not be opened or created, or the server could not be reached.
    case cannotOpen(path: String, reason: String)
    /// The store was migrated by a newer iaplens.
    case newerSchema(path: String)
    /// The store was created for another app.
    case otherApp(path: String, storeBundleId: String, requestedBundleId: String)
    /// A write failed; the batch was rolled back.
    case writeFailed(reason: String)
    /// A `--database` value iaplens cannot use.
    case invalidLocation(String, reason: String)
    /// A statement failed on the server or in SQLite (a bug, a full disk, a lost connection).
    case queryFailed(reason: String)
    /// Another run holds the store's run lock.
    case busy(holder: String)
    /// The run lock could not be taken for another reason than a holder.
    case cannotLock(path: String, reason: String)
    /// `--database` names a database (or schema) that holds tables iaplens did not create.
    case notAStore(path: String, tables: [String])
    /// The disk holding the store is full (SQLite's `SQLITE_FULL`, PostgreSQL's `53100 disk_full`).
    case storageFull(path: String, reason: String)
    /// The store cannot be written: a read-only file system or file (SQLite's `SQLITE_READONLY`), or a read-only
    /// server (PostgreSQL's `25006`).
    case storageReadOnly(path: String, reason: String)
    /// The run lock of a PostgreSQL store was lost while the run went on.
    case lockLost(path: String, reason: String)
    /// The database role lacks a privilege (SQLSTATE 42501, or an owner's right): `grant` is the statement that
    /// gives it.
    case permissionDenied(path: String, reason: String, grant: String)

    /// A sentence the user can act on.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            let check =
                path.contains("://")
                ? "the server, user, password (or PGPASSWORD, ~/.pgpass) and database of the URL"
                : "the path and its folder's permissions"
            return "Cannot open the store \(path): \(Self.ended(reason)) Check the --database value: \(check)."
        case .newerSchema(let path):
            return "The store \(path) was written by a newer iaplens. Upgrade iaplens, or use another --database."
        case .otherApp(let path, let storeBundleId, let requestedBundleId):
            return "The store \(path) holds data of \(storeBundleId), not \(requestedBundleId). "
                + "Use one --database per app (a file, or a ?schema= per app on PostgreSQL), or pass --bundle-id \(storeBundleId)."
        case .writeFailed(let reason):
            return
                "Writing to the store failed and the batch was rolled back: \(Self.ended(reason)) Rerun to continue where it stopped."
        case .invalidLocation(let location, let reason):
            return "--database \(location) cannot be used: \(reason)."
        case .queryFailed(let reason):
            return
                "The store refused a statement: \(Self.ended(reason)) Rerun; if it fails again, report it with this message."
        case .busy(let holder):
            return "The store is in use by \(holder); wait for that run to finish (runs of one store must not overlap)."
        case .notAStore(let path, let tables):
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            return
                "\(path) is not an iaplens store: it holds tables iaplens did not create (\(shown)), and iaplens never "
                + "changes another database. Pass a new file or an iaplens store to --database (on PostgreSQL, a schema "
                + "of its own with ?schema=)."
        case .cannotLock(let path, let reason):
            return
                "Cannot take the run lock of \(path): \(Self.ended(reason)) Check that the database folder exists and is writable (on PostgreSQL, that the server is up)."
        case .storageFull(let path, let reason):
            return
                "No space left for the store \(path) (\(reason)): free space there or move it with --database, then rerun."
        case .lockLost(let path, let reason):
            return
                "The run lock on \(path) was lost (\(reason)): this run stopped before its next commit, so it never wrote beside another run; what it committed before is kept and a rerun continues. The server ended the lock's connection: check idle_session_timeout, connection reapers and NAT timeouts, and connect directly or through a session-mode pooler (a transaction-mode pooler cannot hold a session lock)."
        case .storageReadOnly(let path, let reason):
            return
                "The store \(path) cannot be written (\(reason)): make it writable or move it with --database, then rerun."
        case .permissionDenied(let path, let reason, let grant):
            return
                "The database role may not do what iaplens needs in \(path) (\(reason)). Give it the missing grant, as the "
                + "schema's owner or a superuser: \(grant). Rerunning without it fails the same way."
        }
    }

    /// `reason` (a server's or the system's words) closed as a sentence: a period added unless it already ends one
    /// (libpq's "Is the server running …?" read "…?. Check").
    static func ended(_ reason: String) -> String {
        var trimmed = Substring(reason)
        while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
        return trimmed.last.map { ".?!".contains($0) } == true ? String(trimmed) : trimmed + "."
    }

    /// True when the user's command line or configuration is at fault (exit code 64).
    public var isUsage: Bool {
        switch self {
        case .otherApp, .newerSchema, .invalidLocation, .notAStore: return true
        default: return false
        }
    }

    /// The exit code the command line ends with: 75 (EX_TEMPFAIL) when busy, so schedulers retry later.
    public var exitCode: Int32 {
        switch self {
        case .busy, .lockLost: return ExitStatus.tryLater
        case .cannotLock: return ExitStatus.cannotLock
        case .permissionDenied: return ExitStatus.noPermission
        default: return isUsage ? ExitStatus.usage : ExitStatus.failure
        }
    }
}
