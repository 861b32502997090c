import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starts one of ingest's own threads under a name the operating system shows (`top -H`, `perf`, and
/// `scripts/benchmark-ab.sh`, which splits ingest's CPU by thread).
///
/// Setting `Thread.name` before `start()` does not reach the kernel on Linux (Foundation keeps it until the thread
/// exists): these threads showed up under the name of Dispatch's worker pool, like the processing workers. Even set
/// on the running thread it did not always arrive (`PipelineThreadTests` saw the pool's name once, under load), so
/// the running thread also writes its name to `/proc/thread-self/comm`, which is where the kernel keeps it.
enum PipelineThread {
    /// - Parameter name: at most 15 bytes (the kernel's limit), e.g. `iaplens.reader`.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            Thread.current.name = name
            #if canImport(Glibc)
                // pthread_setname_np is a GNU extension Swift's Glibc module does not export; this is what it does.
                let file = open("/proc/thread-self/comm", O_WRONLY)
                if file >= 0 {
                    let bytes = Array(name.utf8.prefix(15))
                    _ = write(file, bytes, bytes.count)
                    close(file)
                }
            #endif
            body()
        }
        thread.start()
    }
}
