/// One request to one of Apple's APIs until the answer is final, the retry rules of every fetch in one place: 429,
/// retryable 5xx and network failures are tried again with ``RetryPolicy``'s backoff; a ``FetchError`` thrown by an
/// attempt (a refused key) stops at once; anything else is returned.
enum RetryingExchange {
    /// - Parameters:
    ///   - name: the request, for the message when it gives up.
    ///   - onRetry: called before each wait (the client's counters).
    ///   - attempt: sends the request once; returns the status and body.
    static func run(
        retry: RetryPolicy, name: String, onRetry: () -> Void, attempt: () async throws -> (status: Int, body: [UInt8])
    ) async throws -> (Int, [UInt8]) {
        var failures = 0
        var waited: Duration = .zero
        while true {
            let outcome: String
            do {
                let (status, body) = try await attempt()
                guard RetryPolicy.isRetryable(status: status) else { return (status, body) }
                outcome = "HTTP \(status)"
            } catch let error as FetchError {
                throw error
            } catch {
                outcome = "\(error)"
            }
            failures += 1
            guard let wait = retry.delay(afterFailures: failures, waitedSoFar: waited) else {
                throw FetchError.gaveUp(request: name, attempts: failures, last: outcome)
            }
            onRetry()
            waited += wait
            try await Task.sleep(for: wait)
        }
    }
}
