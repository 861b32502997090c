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

    init(path: String) throws(FileAccessError) {
        self.path = path
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
        var total = 0
        while total < buffer.count {
            let count = read(descriptor, base + total, buffer.count - total)
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
