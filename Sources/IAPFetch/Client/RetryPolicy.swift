import Foundation

/// How long to wait before each retry of a request Apple answered with 429 or a retryable 5xx (or that failed on
/// the network): exponential backoff with full jitter, bounded in attempts and in total waiting time.
public struct RetryPolicy: Sendable {
    public var maximumAttempts: Int
    /// The first wait's upper bound; each later one doubles it.
    public var baseDelay: Duration
    public var maximumDelay: Duration
    /// No retry starts after this much waiting in all.
    public var maximumTotalDelay: Duration
    /// One attempt, from sending to the last byte of the answer.
    public var attemptTimeout: Duration
    /// One request with all its attempts and waits: the most one unanswered request can cost a run.
    public var maximumRequestDuration: Duration

    public init(
        maximumAttempts: Int = 8, baseDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30),
        maximumTotalDelay: Duration = .seconds(180), attemptTimeout: Duration = .seconds(60),
        maximumRequestDuration: Duration = .seconds(180)
    ) {
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumTotalDelay = maximumTotalDelay
        self.attemptTimeout = attemptTimeout
        self.maximumRequestDuration = maximumRequestDuration
    }

    /// The wait before attempt `attempt + 1` (after `attempt` failures), or nil when no attempt is left.
    func delay(afterFailures attempt: Int, waitedSoFar: Duration) -> Duration? {
        guard attempt < maximumAttempts else { return nil }
        let ceiling = min(maximumDelay, baseDelay * (1 << min(attempt - 1, 20)))
        // Full jitter: a uniform wait up to the ceiling keeps many clients from retrying in step.
        let wait = ceiling * Double.random(in: 0.5...1.0)
        guard waitedSoFar + wait <= maximumTotalDelay else { return nil }
        return wait
    }

    /// Statuses worth another attempt: rate limited, or a server-side failure Apple documents as retryable.
    static func isRetryable(status: Int) -> Bool {
        status == 429 || status == 500 || status == 502 || status == 503 || status == 504
    }
}
