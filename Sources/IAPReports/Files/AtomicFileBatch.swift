#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files written atomically as one batch: each is written to a temporary beside it as it comes (so its bytes need
/// not be kept), then ``commit()`` flushes them all with one `syncfs(2)` and renames each into place.
///
/// One flush, not one `fsync` per file: a month of case pages is thousands of small files, and a flush each cost
/// more than rendering them (Documentation/Performance.md). A run killed before the renames leaves only
/// temporaries (`<name>.tmp-<pid>`), which the next run removes; a target that is a symbolic link is replaced, not
/// followed. A batch that fails, or is dropped uncommitted, removes its temporaries.
final class AtomicFileBatch {
    private var staged: [(temporary: String, path: String)] = []
    private var flushDescriptor: Int32 = -1
    private var isCommitted = false

    deinit {
        if !isCommitted { discard() }
        if flushDescriptor >= 0 { close(flushDescriptor) }
    }

    /// Writes `bytes` to the temporary file of `path`.
    func stage(_ bytes: [UInt8], to path: String) throws(ReportWriterError) {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            discard()
            throw .cannotWrite(path: path, operation: "creating a temporary file", errno: code)
        }
        staged.append((temporary, path))
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                discard()
                throw .cannotWrite(path: path, operation: "writing", errno: code)
            }
            offset += count
        }
        if flushDescriptor < 0 { flushDescriptor = descriptor } else { close(descriptor) }
    }

    /// Flushes every staged file to disk, then renames each over its target, in the order staged.
    func commit() throws(ReportWriterError) {
        defer { isCommitted = true }
        guard let last = staged.last else { return }
        if flushDescriptor >= 0 && Self.flushFileSystem(flushDescriptor) != 0 {
            let code = errno
            discard()
            throw .cannotWrite(path: last.path, operation: "flushing to disk", errno: code)
        }
        for (index, file) in staged.enumerated() where rename(file.temporary, file.path) != 0 {
            let code = errno
            for later in staged[index...] { unlink(later.temporary) }
            staged = []
            throw .cannotWrite(path: file.path, operation: "renaming the temporary file into place", errno: code)
        }
        staged = []
    }

    /// Removes every temporary staged and not yet renamed.
    func discard() {
        for file in staged { unlink(file.temporary) }
        staged = []
    }

    /// Flushes every file of the file system holding `descriptor`: Linux's `syncfs(2)`, looked up at run time
    /// because Glibc's module map hides it behind `_GNU_SOURCE`; where it is missing, `sync(2)`.
    private static func flushFileSystem(_ descriptor: Int32) -> Int32 {
        typealias SyncFS = @convention(c) (Int32) -> Int32
        if let symbol = dlsym(nil, "syncfs") {
            return unsafeBitCast(symbol, to: SyncFS.self)(descriptor)
        }
        sync()
        return 0
    }
}
