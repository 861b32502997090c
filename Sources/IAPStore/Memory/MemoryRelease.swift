#if canImport(Glibc)
import Glibc
#endif

/// Returns memory the process has freed to the operating system: ingest after every write, SQLite's index builds
/// after a bulk load (``SecondaryIndexes``), and the SQLite model workers after every model (``SQLiteModelWorkspace``).
public enum MemoryRelease {
    /// glibc keeps freed blocks in per-thread arenas; after a load on many threads that is tens of MB of
    /// resident memory nobody uses. `malloc_trim` gives it back, so the next phase (the index sorts at the
    /// end of a bulk load) does not add its memory on top. Looked up at run time: `<malloc.h>` is not part of
    /// Swift's Glibc module, and another C library simply lacks the symbol.
    public static func returnFreedMemory() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }

    /// Makes blocks of 4 MB and more always their own mappings, returned to the system when freed. glibc raises its
    /// mapping threshold after the first large block is freed (up to 32 MB), after which documents near the 16 MiB
    /// limit were carved from the arenas and their memory stayed resident: three of them in flight held 210 MB,
    /// 120 MB with this.
    public static func returnLargeBlocksWhenFreed() {
        #if canImport(Glibc)
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>
        _ = unsafeBitCast(symbol, to: MallOpt.self)(mmapThreshold, 4 << 20)
        #endif
    }
}
