import Foundation
import IAPReports
import IAPStore

#if canImport(Glibc)
    import Glibc
#endif

/// Turns "SQLite error 13: database or disk is full - while executing COMMIT TRANSACTION" and its kin into one
/// sentence that names the file system that is full (or read-only), what was being written, and what to do.
///
/// Nothing is lost in these cases, which the sentence says: every batch is one transaction, so the store keeps what
/// was committed, and a rerun with space finishes the job; report files are written atomically.
enum StorageFailure {
    /// What ran out of room or could not be written.
    enum Target {
        /// The store (its file, its journal and temporary files beside it), or a PostgreSQL server.
        case store(location: String)
        /// The reports folder.
        case reports(directory: String)
    }

    /// The explaining error for `error`, or nil when it is not a storage failure.
    static func explain(_ error: any Error, target: Target) -> PipelineError? {
        switch classify(error) {
        case nil: return nil
        case .full(let detail)?: return .storage(sentence(full: true, target: target, path: detail, error: error))
        case .readOnly(let detail)?: return .storage(sentence(full: false, target: target, path: detail, error: error))
        }
    }

    private enum Kind {
        case full(path: String?)
        case readOnly(path: String?)
    }

    private static func classify(_ error: any Error) -> Kind? {
        // The store's own errors, whichever engine: classified behind the store boundary.
        switch StorageCondition(error) {
        case .full?: return .full(path: nil)
        case .readOnly?: return .readOnly(path: nil)
        case nil: break
        }
        if let error = error as? ReportWriterError {
            switch error {
            case .cannotWrite(let path, _, let code), .cannotCreateDirectory(let path, let code):
                if code == ENOSPC || code == EDQUOT { return .full(path: path) }
                if code == EROFS || code == EACCES || code == EPERM { return .readOnly(path: path) }
                return nil
            default: return nil
            }
        }
        return nil
    }

    private static func sentence(full: Bool, target: Target, path: String?, error: any Error) -> String {
        switch target {
        case .store(let location) where location.lowercased().hasPrefix("postgres"):
            return
                (full ? "The PostgreSQL server has no space left" : "The PostgreSQL server refuses writes (read-only)")
                + " while writing the store \(location): "
                + (full ? "free space on the server's data disk" : "connect to a primary that accepts writes")
                + ", then rerun; every batch committed so far is kept and the rerun finishes the job. (\(error))"
        case .store(let location):
            let where_ = fileSystem(of: location)
            return full
                ? "No space left on the file system mounted at \(where_.mount) (\(where_.free)) while writing the store "
                    + "\(location) or its temporary files beside it: free space there, or move the store with --database to a "
                    + "larger disk, then rerun; every batch committed so far is kept and the rerun finishes the job."
                : "The store \(location) cannot be written: the file system mounted at \(where_.mount) is read-only or the "
                    + "file or its folder is not writable. Make it writable (check the mount and the permissions) or move "
                    + "the store with --database, then rerun; nothing committed is lost."
        case .reports(let directory):
            let file = path ?? directory
            let where_ = fileSystem(of: file)
            return full
                ? "No space left on the file system mounted at \(where_.mount) (\(where_.free)) while writing the report "
                    + "file \(file): free space there, or choose another --reports folder, then rerun `iaplens report` (the "
                    + "store is complete; report files are written whole or not at all)."
                : "Cannot write the report file \(file): the file system mounted at \(where_.mount) is read-only or the "
                    + "folder is not writable. Make it writable or choose another --reports folder, then rerun "
                    + "`iaplens report` (the store is complete)."
        }
    }

    /// The mount point holding `path` (its nearest existing folder), and the space left there.
    static func fileSystem(of path: String) -> (mount: String, free: String) {
        var current = URL(fileURLWithPath: path).standardizedFileURL.path
        var info = stat()
        while stat(current, &info) != 0 && current != "/" {
            current = (current as NSString).deletingLastPathComponent
        }
        let device = info.st_dev
        var mount = current
        while mount != "/" {
            let parent = (mount as NSString).deletingLastPathComponent
            var parentInfo = stat()
            guard stat(parent, &parentInfo) == 0, parentInfo.st_dev == device else { break }
            mount = parent
        }
        var space = statvfs()
        let free =
            statvfs(current, &space) == 0
            ? "\(UInt64(space.f_bavail) * UInt64(space.f_frsize) / 1_048_576) MB free of "
                + "\(UInt64(space.f_blocks) * UInt64(space.f_frsize) / 1_048_576) MB"
            : "free space unknown"
        return (mount, free)
    }
}
