import Foundation

/// Starts one of ingest's own threads under a name the operating system shows (`top -H`, `perf`, and
/// `scripts/benchmark-ab.sh`, which splits ingest's CPU by thread).
///
/// Setting `Thread.name` before `start()` does not reach the kernel on Linux (Foundation keeps it until the thread
/// exists): these threads showed up under the name of Dispatch's worker pool, like the processing workers. Set on
/// the running thread, it does.
enum PipelineThread {
    /// - Parameter name: at most 15 bytes (the kernel's limit), e.g. `iaplens.reader`.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            Thread.current.name = name
            body()
        }
        thread.start()
    }
}
