import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTPS to Apple's APIs through Foundation's `URLSession`, which ships with the toolchain (libcurl underneath on
/// Linux): a batch job's few thousand requests need nothing more, and building a second HTTP stack cost the first
/// build minutes (Documentation/Performance.md, "Decision records").
///
/// Each request is sent once and read whole, under the rules ``RetryingExchange`` states:
/// - a redirect is never followed: the 3xx itself is the answer, and ``RetryingExchange`` refuses it;
/// - a body past `limit` bytes stops the transfer at once with ``BodyTooLarge``;
/// - cancelling the calling task cancels the transfer (how ``RetryingExchange`` bounds an attempt's time);
/// - no cache, no cookies, no credentials kept between requests.
final class HTTPTransport: Sendable {
    /// What one request got.
    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]
        /// The `Retry-After` header as sent, if any.
        var retryAfter: String?
    }

    /// The body grew past the limit; the transfer was stopped.
    struct BodyTooLarge: Error {}

    private let session: URLSession
    private let transfers: Transfers

    /// - Parameter idleTimeout: the longest wait for the next bytes of an answer.
    init(idleTimeout: Duration) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        configuration.timeoutIntervalForRequest = TimeInterval(idleTimeout.components.seconds)
        transfers = Transfers()
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }

    /// Closes the connections; requests still running are cancelled.
    func shutdown() {
        session.invalidateAndCancel()
    }

    /// Sends one request and reads the whole answer, at most `limit` bytes of body.
    func send(method: String, url: String, headers: [(String, String)], body: [UInt8]?, limit: Int) async throws -> Answer {
        guard let address = URL(string: url) else { throw URLError(.badURL) }
        var request = URLRequest(url: address)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body) }
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfers.start(task, limit: limit, continuation: continuation)
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The session's delegate: one entry per running transfer, keyed by task, under a lock (URLSession calls it on
    /// its own queue, the callers wait on their own tasks).
    private final class Transfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private struct Transfer {
            var limit: Int
            var continuation: CheckedContinuation<Answer, any Error>
            var response: HTTPURLResponse?
            var body: [UInt8] = []
            var tooLarge = false
        }

        private let lock = NSLock()
        private var running: [Int: Transfer] = [:]

        func start(_ task: URLSessionDataTask, limit: Int, continuation: CheckedContinuation<Answer, any Error>) {
            lock.withLock { running[task.taskIdentifier] = Transfer(limit: limit, continuation: continuation) }
            // Cancelled before it started (the attempt's time was already up): it ends at once, through didComplete.
            if Task.isCancelled { task.cancel() }
            task.resume()
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            lock.withLock { running[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let overLimit: Bool = lock.withLock {
                guard var transfer = running[dataTask.taskIdentifier] else { return false }
                if transfer.body.count + data.count > transfer.limit {
                    transfer.tooLarge = true
                    running[dataTask.taskIdentifier] = transfer
                    return true
                }
                transfer.body.append(contentsOf: data)
                running[dataTask.taskIdentifier] = transfer
                return false
            }
            if overLimit { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let transfer = lock.withLock({ running.removeValue(forKey: task.taskIdentifier) }) else { return }
            if transfer.tooLarge {
                transfer.continuation.resume(throwing: BodyTooLarge())
            } else if let error {
                transfer.continuation.resume(throwing: error)
            } else if let response = transfer.response {
                transfer.continuation.resume(
                    returning: Answer(
                        status: response.statusCode, body: transfer.body,
                        retryAfter: response.value(forHTTPHeaderField: "Retry-After")))
            } else {
                transfer.continuation.resume(throwing: URLError(.badServerResponse))
            }
        }
    }
}
