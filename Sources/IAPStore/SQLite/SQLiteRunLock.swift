import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Only one run may hold a store at a time (Documentation/Pipeline.md). An advisory `flock` on `<database>.lock`:
/// the kernel releases it when the holder exits or is killed, so a crashed run never leaves a stale lock.
/// The lock file sits beside the store's real file (symbolic links resolved, in the file's name and in its folders),
/// so two paths to one store take one lock. A hard link is another name of the same file, in any folder: so the
/// store file itself is locked too (a `flock`, which on Linux never meets SQLite's own `fcntl` locks), and a run
/// through a hard link finds it held.
final class SQLiteRunLock: StoreRunLock, @unchecked Sendable {
    // @unchecked: the descriptors are only used in init and deinit.
    private let descriptor: Int32
    /// The store file's own lock (-1 when the store did not exist yet: then no other name of it can either).
    private let storeDescriptor: Int32

    /// Takes the lock or throws ``StoreError/busy(holder:)`` naming the process that holds it.
    init(databasePath: String, command: String) throws {
        let path = Self.realPath(databasePath) + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            // A folder that does not exist is a mistyped --database, not a lock problem: iaplens creates the store
            // file, never folders, so a typo cannot plant a store somewhere unexpected.
            let folder = (path as NSString).deletingLastPathComponent
            if errno == ENOENT, !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                // A link to nothing: `mkdir -p` on the link itself would fail, so name where it points.
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder) {
                    throw StoreError.invalidLocation(
                        databasePath,
                        reason:
                            "its folder \(folder) is a link to \(target), which does not exist; create that folder or correct the link"
                    )
                }
                throw StoreError.invalidLocation(
                    databasePath,
                    reason: "its folder \(folder) does not exist; create it (mkdir -p \(folder)) or correct the path")
            }
            throw StoreError.cannotLock(path: path, reason: reason)
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let holder =
                (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                ?? ""
            close(fd)
            throw StoreError.busy(holder: holder.isEmpty ? "another iaplens process" : holder)
        }
        let store = open(Self.realPath(databasePath), O_RDONLY | O_CLOEXEC)
        if store >= 0, flock(store, LOCK_EX | LOCK_NB) != 0 {
            close(store)
            close(fd)
            throw StoreError.busy(
                holder: "another iaplens process, through another name of the same file (a hard link)")
        }
        storeDescriptor = store
        let note = "pid \(getpid()) (iaplens \(command), started \(SQLiteRunLock.now()))\n"
        _ = ftruncate(fd, 0)
        _ = note.withCString { pointer in pwrite(fd, pointer, strlen(pointer), 0) }
        descriptor = fd
    }

    deinit {
        if storeDescriptor >= 0 {
            flock(storeDescriptor, LOCK_UN)
            close(storeDescriptor)
        }
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// True when a process holds the lock of the store at `databasePath`, told without taking it (a probe that took
    /// it, however briefly, could turn a run starting at that moment away). The kernel lists every `flock` in
    /// `/proc/locks` by holder and inode: a process killed mid-run holds none, whatever its run log says.
    static func isHeld(databasePath: String) -> Bool {
        var info = stat()
        guard stat(realPath(databasePath) + ".lock", &info) == 0,
            let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return false }
        // `1: FLOCK  ADVISORY  WRITE 13949 fe:00:16221296 0 EOF`: the inode is the last part of the sixth field.
        let inode = String(info.st_ino)
        return locks.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 6 && fields[1] == "FLOCK"
                && fields[5].split(separator: ":").last.map(String.init) == inode
        }
    }

    /// The path with every symbolic link resolved; for a file that does not exist yet, its folder's real path and its
    /// name (the file will be created there).
    static func realPath(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        guard let resolvedFolder = realpath(folder, nil) else { return path }
        defer { free(resolvedFolder) }
        return String(cString: resolvedFolder) + "/" + url.lastPathComponent
    }

    private static func now() -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date())
    }
}
