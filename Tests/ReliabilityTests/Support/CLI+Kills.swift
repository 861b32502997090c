import Foundation
import IAPTestSupport

#if canImport(Glibc)
    import Glibc
#endif

extension CLI {
    /// Starts `arguments` and kills it with SIGKILL after a delay drawn from `0…window`, until `kills` runs were really
    /// interrupted (at most three times as many attempts). A run that ends before its kill must succeed (`expect`),
    /// and shrinks the window to its own length: later runs have less left to do. `afterEach` runs after every
    /// attempt (an integrity check). - Returns: how many runs the kills interrupted.
    static func killRepeatedly(
        _ arguments: [String], kills: Int, window: Double, random: inout SeededRandom,
        expectSuccess: (Result, String) -> Void, afterEach: (String) throws -> Void = { _ in }
    ) throws -> Int {
        var window = window
        var interrupted = 0
        var attempt = 0
        while interrupted < kills && attempt < kills * 3 {
            attempt += 1
            let delay = Double.random(in: 0.0...window, using: &random)
            let running = try Running(arguments)
            usleep(useconds_t(delay * 1_000_000))
            let wasRunning = running.process.isRunning
            Glibc.kill(running.pid, SIGKILL)
            let result = try running.wait(timeout: 120)
            if wasRunning && running.process.terminationReason == .uncaughtSignal {
                interrupted += 1
            } else {
                expectSuccess(result, "attempt \(attempt)")
                window = max(0.05, result.seconds * 0.9)
            }
            try afterEach("attempt \(attempt) at \(delay) s")
        }
        return interrupted
    }
}
