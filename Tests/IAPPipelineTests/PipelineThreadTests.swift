import Foundation
import Synchronization
import Testing

@testable import IAPPipeline

/// Ingest's threads are told apart by name in `top -H`, `perf` and `scripts/benchmark-ab.sh`; the name has to reach
/// the kernel, which is where those tools read it.
@Suite struct PipelineThreadTests {
    @Test func theKernelSeesTheThreadsName() throws {
        let seen = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        PipelineThread.start(name: "iaplens.reader") {
            let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            seen.withLock { $0 = comm }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.withLock { $0 } == "iaplens.reader\n")
    }
}
