#if canImport(Glibc)
    import Glibc
#endif

/// Returns memory the process has freed to the operating system: ingest after every write (glibc only), SQLite's
/// index builds after a bulk load (``SecondaryIndexes``), and the SQLite model workers after every model
/// (``SQLiteModelWorkspace``).
public enum MemoryRelease {
    /// Freed memory stays resident until the allocator is told to give it back: glibc keeps freed blocks in
    /// per-thread arenas, jemalloc keeps freed pages for a while (a second in iaplens, `CJemallocSettings`). After a
    /// load on many threads that is tens of MB nobody uses, and the next phase (the index sorts at the end of a bulk
    /// load) would add its memory on top. Both entry points are looked up at run time: `<malloc.h>` is not part of
    /// Swift's Glibc module, and the `iaplens` executable links jemalloc (Documentation/Performance.md "jemalloc as the allocator")
    /// while the test binaries run on glibc's allocator.
    public static func returnFreedMemory() {
        #if canImport(Glibc)
            if let mallctl = jemallocControl {
                // Every arena at once (MALLCTL_ARENAS_ALL in <jemalloc/jemalloc.h>).
                _ = "arena.4096.purge".withCString { mallctl($0, nil, nil, nil, 0) }
                return
            }
            _ = glibcTrim?(0)
        #endif
    }

    /// After each of ingest's writes. The rows were allocated on the worker threads and are freed on the writer's.
    /// glibc keeps that memory in the workers' arenas until it is trimmed, so it is trimmed after every write (every
    /// fourth saved about 1 % of the CPU but let the 1M peak grow to 168 MB, against 149 MB). jemalloc hands freed
    /// pages back within about a second on its own (`CJemallocSettings`); purging it after every write as well made
    /// it hand back pages the next batch needed again: at 1M, 300,000 page faults instead of 165,000 and 1.6 µs more
    /// CPU per document, for 3 MB less at the peak (Documentation/Performance.md, "Retains, copies and purges").
    public static func returnFreedMemoryAfterWrite() {
        #if canImport(Glibc)
            if jemallocControl != nil { return }
            _ = glibcTrim?(0)
        #endif
    }

    #if canImport(Glibc)
        private typealias MallCtl =
            @convention(c) (
                UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?,
                Int
            ) -> Int32

        /// jemalloc's `mallctl` when jemalloc is the process's allocator. glibc has no such symbol.
        private static let jemallocControl: MallCtl? = dlsym(nil, "mallctl").map { unsafeBitCast($0, to: MallCtl.self) }

        private typealias MallocTrim = @convention(c) (Int) -> Int32

        /// glibc's `malloc_trim`; another C library simply lacks the symbol.
        private static let glibcTrim: MallocTrim? = dlsym(nil, "malloc_trim").map {
            unsafeBitCast($0, to: MallocTrim.self)
        }
    #endif

    /// Makes blocks of 4 MB and more always their own mappings, returned to the system when freed. glibc raises its
    /// mapping threshold after the first large block is freed (up to 32 MB), after which documents near the 16 MiB
    /// limit were carved from the arenas and their memory stayed resident: three of them in flight held 210 MB,
    /// 120 MB with this. Only glibc's allocator has this threshold: under jemalloc (the executables) the call sets
    /// it on an allocator nobody uses, and `MemoryBoundTests` measures those documents on jemalloc.
    public static func returnLargeBlocksWhenFreed() {
        #if canImport(Glibc)
            typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(nil, "mallopt") else { return }
            let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>
            _ = unsafeBitCast(symbol, to: MallOpt.self)(mmapThreshold, 4 << 20)
        #endif
    }
}
