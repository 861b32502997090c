import ArgumentParser
import Foundation
import IAPAnalytics
import IAPConsumption
import IAPFetch
import IAPStore

/// How `fetch`, `consumption` and `run` print what the stages that talk to Apple did: the summary line, the
/// warnings, and the exit code a failure to reach Apple means.
enum AppleOutput {
    /// At most one progress line a second.
    final class ProgressThrottle: @unchecked Sendable {
        private let lock = NSLock()
        private var last = Date.distantPast

        func allows() -> Bool {
            lock.withLock {
                guard Date().timeIntervalSince(last) >= 1 else { return false }
                last = Date()
                return true
            }
        }
    }

    /// Progress lines of a fetch, throttled.
    static func fetchProgress() -> @Sendable (String) -> Void {
        let throttle = ProgressThrottle()
        return { line in if throttle.allows() { Console.note(line) } }
    }

    /// Retry lines, every one: each says why the command is waiting and how long.
    static let retryLine: @Sendable (String) -> Void = { Console.note($0) }

    /// - Parameter lineToLog: the summary line goes to the log instead of standard output (`run --json`).
    static func printFetch(_ summary: FetchSummary, lineToLog: Bool = false) {
        for warning in summary.warnings { Console.warn(warning) }
        if lineToLog { Console.note(summary.line) } else { Console.result(summary.line) }
    }

    /// Prints the consumption run; throws exit 75 when requests could not be sent because Apple kept failing.
    static func printConsumption(_ summary: ConsumptionSummary, dryRun: Bool, lineToLog: Bool = false) throws {
        for warning in summary.warnings { Console.warn(warning) }
        if dryRun {
            // Standard output holds the bodies alone, one JSON line each, so a script can read them.
            for (transactionId, body) in summary.bodies {
                Console.note("would send for transaction \(transactionId):")
                print(body)
            }
            Console.note(summary.line)
        } else if lineToLog {
            Console.note(summary.line)
        } else {
            Console.result(summary.line)
        }
        for outcome in summary.outcomes where outcome.outcome == .inDoubt {
            Console.warn(
                "the consumption request \(outcome.notificationId) (transaction \(outcome.transactionId)) was sent but its answer was never recorded: it may have reached Apple, so it is not sent again. Check it in App Store Connect."
            )
        }
        let unverified = summary.count(.unverified)
        if unverified > 0 {
            Console.warn(
                "\(unverified) consumption request(s) were not answered: their notifications were accepted without a verified signature (--no-verify), so anyone could have written them. Ingest Apple's signed copies to answer them."
            )
        }
        for outcome in summary.outcomes where outcome.outcome == .conflicting {
            Console.warn(
                "the consumption request \(outcome.notificationId) has verified copies naming different transactions (\(outcome.transactionId) among them): it is answered for none of them. Check the archive's copies of that notification."
            )
        }
        for outcome in summary.outcomes where outcome.outcome == .answeredLate {
            Console.warn(
                "the answer for transaction \(outcome.transactionId) was accepted after the request's \(BusinessRules.consumptionAnswerWindowHours) hours (Apple kept the run waiting): it is recorded and reported as late; Apple may not have used it."
            )
        }
        if summary.stoppedByDeadline {
            Console.warn(
                "the run's deadline (--deadline) passed with \(summary.count(.notTried)) request(s) not tried: they stay pending, and the next run sends them while their \(BusinessRules.consumptionAnswerWindowHours) hours last."
            )
        }
        if !summary.refusals.isEmpty {
            for refusal in summary.refusals {
                let code = refusal.errorCode.map { " errorCode \($0)" } ?? ""
                Console.error(
                    "Apple refused the answer for transaction \(refusal.transactionId) (HTTP \(refusal.status)\(code)\(refusal.message.isEmpty ? "" : ": " + refusal.message)); it is recorded and not sent again. Check the facts row and the request in App Store Connect."
                )
            }
        }
        if !summary.failures.isEmpty {
            for failure in summary.failures { Console.warn("transaction \(failure.transactionId): \(failure.message)") }
            Console.error(
                "\(summary.failures.count) consumption request(s) could not be sent because Apple kept failing; every other request was tried. Run consumption again later (within \(BusinessRules.consumptionAnswerWindowHours) hours of each request)."
            )
            throw ExitCode(ExitStatus.tryLater)
        }
        if !summary.refusals.isEmpty { throw ExitCode(ExitStatus.appleRefused) }
    }
}
