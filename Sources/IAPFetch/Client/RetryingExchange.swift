import Foundation

/// One request to one of Apple's APIs until the answer is final, the rules of every fetch in one place
/// (Documentation/Fetching.md "When Apple's API misbehaves"):
///
/// - 429, retryable 5xx and network failures are tried again with ``RetryPolicy``'s backoff, or after the
///   `Retry-After` Apple sent when that is longer;
/// - each attempt is bounded in time as a whole (a server that sends one byte every 20 s cannot hold it open), and
///   the request with all its retries within ``RetryPolicy/maximumRequestDuration``;
/// - a redirect is refused: Apple's APIs never redirect, so the answer is some other host's (a captive portal, a
///   proxy), never saved as Apple's and never sent a body;
/// - a body over the size limit is final: asking again downloads it again;
/// - a ``FetchError`` thrown by an attempt (a refused key) stops at once; anything else is returned.
enum RetryingExchange {
    /// - Parameters:
    ///   - name: the request, for the message when it gives up.
    ///   - retriesUnanswered: false for a request that acts (Send Consumption Information): an attempt with no
    ///     answer may have reached Apple, so it is not sent again; ``FetchError/noAnswer(request:last:)`` says so.
    ///   - onRetry: called before each wait with a sentence saying what failed and when the next attempt is (the
    ///     client's counters, and the progress a person watching a run sees while Apple or the network is down).
    ///   - attempt: sends the request once.
    static func run(
        retry: RetryPolicy, name: String, bodyLimit: Int, retriesUnanswered: Bool = true, onRetry: (String) -> Void,
        attempt: @escaping @Sendable () async throws -> HTTPTransport.Answer
    ) async throws -> (Int, [UInt8]) {
        var failures = 0
        var waited: Duration = .zero
        let clock = ContinuousClock()
        let deadline = clock.now + retry.maximumRequestDuration
        while true {
            let outcome: String
            var retryAfter: Duration?
            let budget = min(retry.attemptTimeout, deadline - clock.now)
            guard budget > .zero else {
                throw FetchError.gaveUp(
                    request: name, attempts: failures, last: "no answer within \(seconds(retry.maximumRequestDuration))"
                )
            }
            do {
                let answer = try await withTimeout(budget) { try await attempt() }
                if (300..<400).contains(answer.status) {
                    throw FetchError.redirected(request: name, status: answer.status)
                }
                guard RetryPolicy.isRetryable(status: answer.status) else { return (answer.status, answer.body) }
                outcome = "HTTP \(answer.status)"
                retryAfter = answer.retryAfter.flatMap(Self.retryAfter)
            } catch let error as FetchError {
                throw error
            } catch is HTTPTransport.BodyTooLarge {
                throw FetchError.tooLarge(request: name, limit: bodyLimit)
            } catch is AttemptTimedOut {
                outcome = "no complete answer within \(seconds(budget))"
                if !retriesUnanswered { throw FetchError.noAnswer(request: name, last: outcome) }
            } catch {
                outcome = "\(error)"
                if !retriesUnanswered { throw FetchError.noAnswer(request: name, last: outcome) }
            }
            failures += 1
            guard var wait = retry.delay(afterFailures: failures, waitedSoFar: waited) else {
                throw FetchError.gaveUp(request: name, attempts: failures, last: outcome)
            }
            if let retryAfter, retryAfter > wait { wait = retryAfter }
            guard clock.now + wait < deadline else {
                let asked = retryAfter.map { ", and Apple asked to wait \(seconds($0))" } ?? ""
                throw FetchError.gaveUp(request: name, attempts: failures, last: outcome + asked)
            }
            onRetry(
                "\(name): \(outcome); trying again in \(tenths(wait)) (attempt \(failures + 1) of \(retry.maximumAttempts))"
            )
            waited += wait
            try await Task.sleep(for: wait)
        }
    }

    /// `Retry-After` in seconds (an HTTP date is read as "no advice"): at most a day, so a hostile value cannot
    /// overflow the wait.
    static func retryAfter(_ value: String) -> Duration? {
        guard let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return nil }
        return .seconds(min(seconds, 86_400))
    }

    struct AttemptTimedOut: Error {}

    /// Runs `body`, cancelled when it takes longer than `limit`.
    private static func withTimeout<T: Sendable>(
        _ limit: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw AttemptTimedOut()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw AttemptTimedOut() }
            return first
        }
    }

    static func seconds(_ duration: Duration) -> String {
        "\(duration.components.seconds) s"
    }

    /// `1.3 s`: a backoff's wait, to the tenth of a second.
    static func tenths(_ duration: Duration) -> String {
        let tenths = duration.components.seconds * 10 + duration.components.attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
