import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Only one run may hold a store at a time (PIPELINE.md). An advisory `flock` on `<database>.lock`:
/// the kernel releases it when the holder exits or is killed, so a crashed run never leaves a stale lock.
final class SQLiteRunLock: StoreRunLock, @unchecked Sendable {
    // @unchecked: the descriptor is only used in init and deinit.
    private let descriptor: Int32

    /// Takes the lock or throws ``StoreError/busy(holder:)`` naming the process that holds it.
    init(databasePath: String, command: String) throws {
        let path = databasePath + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw StoreError.cannotLock(path: path, reason: String(cString: strerror(errno)))
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(fd)
            throw StoreError.busy(holder: holder.isEmpty ? "another iaplens process" : holder)
        }
        let note = "pid \(getpid()) (iaplens \(command), started \(SQLiteRunLock.now()))\n"
        _ = ftruncate(fd, 0)
        _ = note.withCString { pointer in pwrite(fd, pointer, strlen(pointer), 0) }
        descriptor = fd
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    private static func now() -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date())
    }
}
