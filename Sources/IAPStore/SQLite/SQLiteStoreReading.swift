import Foundation
import GRDB

/// Reading a SQLite store where this user may not write: `status` run by a monitoring account, a store on a
/// read-only mount.
///
/// A store in WAL mode is read through two files beside it, `-wal` and `-shm`, which the first connection creates
/// and the last one removes. SQLite reads through them read-only when they exist (a run is writing); when they do not
/// and the folder cannot hold them, SQLite opens nothing but an *immutable* file, which it reads without any lock.
/// No `-wal` file means no connection has the store open; should a run open it and copy its log into the file while
/// this one reads, the file's size or modification time changes, and the read is made again (`consistently`).
extension SQLiteStore {
    /// How many times a read is made again when the file changed under it.
    static let readAttempts = 3

    /// Runs `body` on the store at `path` opened read-only, writing nothing beside it.
    /// - Throws: ``StoreError/storageReadOnly(path:reason:)`` when the store's schema is not this version's (an
    ///   older store is upgraded by the next `ingest`, as its owner), or the file kept changing while it was read.
    static func readingOnly<T>(path: String, _ body: (SQLiteStore) throws -> T) throws -> T {
        for _ in 0..<readAttempts {
            let before = FileVersion(path)
            let hasLog = FileManager.default.fileExists(atPath: path + "-wal")
            let result = try withStore(path: path, immutable: !hasLog, body)
            // With a log, SQLite's own read lock keeps the read consistent; without one, the file must not have moved.
            if hasLog || (before != nil && FileVersion(path) == before) { return result }
        }
        throw StoreError.storageReadOnly(
            path: path, reason: "it changed each time it was read, and this user cannot take SQLite's read lock; rerun")
    }

    private static func withStore<T>(path: String, immutable: Bool, _ body: (SQLiteStore) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: immutable ? immutableURI(path) : path, configuration: configuration)
        defer { try? queue.close() }
        try StoreMigrations.migrator.checkNotSuperseded(queue, path: path)
        guard try queue.read({ db in try StoreMigrations.migrator.hasCompletedMigrations(db) }) else {
            throw StoreError.storageReadOnly(
                path: path,
                reason:
                    "it was written by an older iaplens and this user cannot upgrade it; run `iaplens ingest` on it "
                    + "as a user who may write there")
        }
        return try body(SQLiteStore(readOnly: queue, path: path))
    }

    /// `file:` URI of `path` opened immutable (SQLite reads URIs as Debian builds it, `SQLITE_USE_URI`): the path
    /// made absolute, its `%`, `?`, `#` and bytes beyond ASCII escaped.
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var escaped = ""
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0x80...:
                escaped += String(format: "%%%02X", byte)
            default: escaped.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return "file:" + escaped + "?immutable=1"
    }

    /// What tells that a file was written: its inode, size and modification time to the nanosecond.
    struct FileVersion: Equatable {
        let inode: UInt64
        let size: Int64
        let seconds: Int
        let nanoseconds: Int

        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            seconds = info.st_mtim.tv_sec
            nanoseconds = info.st_mtim.tv_nsec
        }
    }
}
