#if canImport(Glibc)
import Glibc
#endif

/// Returns memory the process has freed to the operating system.
enum MemoryRelease {
    /// glibc keeps freed blocks in per-thread arenas; after a load on many threads that is tens of MB of
    /// resident memory nobody uses. `malloc_trim` gives it back, so the next phase (the index sorts at the
    /// end of a bulk load) does not add its memory on top. Looked up at run time: `<malloc.h>` is not part of
    /// Swift's Glibc module, and another C library simply lacks the symbol.
    static func returnFreedMemory() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
