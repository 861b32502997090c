import GRDB

/// A store that cannot take more writes: its disk is full, or it is read-only. Both engines' errors are classified
/// here, once, so the layers above name the condition without knowing an engine's result codes.
public enum StorageCondition: Sendable, Equatable {
    case full
    case readOnly

    /// The condition `error` reports, or nil for any other failure.
    public init?(_ error: any Error) {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            // SQLite maps ENOSPC to SQLITE_FULL itself.
            case .SQLITE_FULL: self = .full
            // Mid-run, CANTOPEN is a journal or temporary file SQLite cannot create beside the store: the folder is
            // not writable. (Opening a store maps it to ``StoreError/cannotOpen(path:reason:)`` instead: there it
            // usually means a folder that does not exist.) A plain I/O error is left as SQLite says it.
            case .SQLITE_READONLY, .SQLITE_CANTOPEN: self = .readOnly
            default: return nil
            }
            return
        }
        if let error = error as? StoreError {
            switch error {
            case .storageFull: self = .full
            case .storageReadOnly: self = .readOnly
            default: return nil
            }
            return
        }
        return nil
    }
}
