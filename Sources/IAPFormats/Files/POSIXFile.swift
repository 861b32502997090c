#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A read-only file descriptor with `read` that fills its buffer (retrying on `EINTR` and short reads).
final class POSIXFile {
    let path: String
    private var descriptor: Int32
    /// Bytes left before the limit (nil: read to the end of the file).
    private var remaining: Int64?
    /// Absorbs every byte read, when set.
    let digest: StreamingDigest?

    /// - Parameters:
    ///   - limit: Read at most this many bytes: the size the file had when it was hashed, so bytes appended
    ///     since are left for the next run instead of being read under a hash that does not cover them.
    ///   - digest: Absorbs every byte read.
    init(path: String, limit: Int64? = nil, digest: StreamingDigest? = nil) throws(FileAccessError) {
        self.path = path
        remaining = limit
        self.digest = digest
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileAccessError(path: path, reason: POSIXFile.errnoText()) }
    }

    deinit { release() }

    func release() {
        if descriptor >= 0 {
            _ = close(descriptor)
            descriptor = -1
        }
    }

    /// Reads until `buffer` is full or the file ends; returns the number of bytes read (0 at end of file).
    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(FileAccessError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let wanted = remaining.map { Int(min(Int64(buffer.count), max($0, 0))) } ?? buffer.count
        var total = 0
        defer {
            if let remaining { self.remaining = remaining - Int64(total) }
            digest?.update(UnsafeRawBufferPointer(start: base, count: total))
        }
        while total < wanted {
            let count = read(descriptor, base + total, wanted - total)
            if count > 0 {
                total += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw FileAccessError(path: path, reason: POSIXFile.errnoText())
            }
        }
        return total
    }

    static func errnoText() -> String {
        guard let text = strerror(errno) else { return "error \(errno)" }
        return String(cString: text)
    }
}
