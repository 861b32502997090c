import Foundation
import IAPFormats

/// Apple's App Store Server API, as `fetch` uses it: three endpoints, each answer a JSON page. Authenticates every
/// request with a fresh-enough bearer token, retries what Apple says may be retried, and counts what it did.
public final class AppStoreServerAPI: @unchecked Sendable {
    public enum Environment: String, Sendable, CaseIterable {
        case production = "Production"
        case sandbox = "Sandbox"

        /// Apple's published base URLs.
        public var baseURL: String {
            switch self {
            case .production: "https://api.storekit.itunes.apple.com"
            case .sandbox: "https://api.storekit-sandbox.itunes.apple.com"
            }
        }
    }

    /// Counts of what the client did, for progress and the summary.
    public struct Counters: Sendable, Equatable {
        public var requests = 0
        public var retries = 0
    }

    private let baseURL: String
    private let key: AppStoreAPIKey
    private let retry: RetryPolicy
    private let transport: HTTPTransport
    private let actionTransport: HTTPTransport
    private let lock = NSLock()
    private var cachedToken: (token: String, expiresAt: Int64)?
    private var counters = Counters()

    /// Told each retry as a sentence (``RetryingExchange``), for the run's progress.
    private let retried: @Sendable (String) -> Void

    public init(
        key: AppStoreAPIKey, baseURL: String, retry: RetryPolicy = RetryPolicy(), timeout: Duration = .seconds(60),
        retried: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.key = key
        self.retried = retried
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.retry = retry
        // Apple's API never redirects: the transport never follows one, and RetryingExchange refuses it.
        transport = HTTPTransport(idleTimeout: timeout)
        actionTransport = HTTPTransport(idleTimeout: timeout, reusesConnections: false)
    }

    /// Closes the connections; call once when done.
    public func shutdown() async {
        transport.shutdown()
        actionTransport.shutdown()
    }

    public var counts: Counters { lock.withLock { counters } }

    /// Get Notification History: one page of `[start, end)`.
    func notificationHistory(start: Int64, end: Int64, paginationToken: String?) async throws -> JSONObject {
        var path = "/inApps/v1/notifications/history"
        if let paginationToken { path += "?paginationToken=" + Self.escaped(paginationToken) }
        let body = JSONValue.object(
            JSONObject([("startDate", .number(JSONNumber(start))), ("endDate", .number(JSONNumber(end)))]))
        return try await send("POST", path, body: body.canonicalJSON(), name: "Get Notification History")
    }

    /// Get Refund History of the customer who owns `transactionId`, after `revision`.
    func refundHistory(transactionId: String, revision: String?) async throws -> JSONObject {
        try Self.checkTransactionId(transactionId)
        var path = "/inApps/v2/refund/lookup/" + Self.escaped(transactionId)
        if let revision { path += "?revision=" + Self.escaped(revision) }
        return try await send("GET", path, body: nil, name: "Get Refund History for \(transactionId)")
    }

    /// Look Up Order ID.
    func lookUpOrder(_ orderId: String) async throws -> JSONObject {
        guard Self.isOrderId(orderId) else { throw FetchError.invalidIdentifier(kind: "order ID", value: orderId) }
        return try await send(
            "GET", "/inApps/v1/lookup/" + Self.escaped(orderId), body: nil, name: "Look Up Order ID \(orderId)")
    }

    private func bearerToken() throws(FetchError) -> String {
        let now = Int64(Date().timeIntervalSince1970)
        if let cached = lock.withLock({ cachedToken }), cached.expiresAt - now > 5 * 60 { return cached.token }
        // Renewed five minutes before it lapses, so a slow request never carries an expired token.
        let lifetime: Int64 = 20 * 60
        let token = try key.token(issuedAt: now, lifetimeSeconds: lifetime)
        lock.withLock { cachedToken = (token, now + lifetime) }
        return token
    }

    /// Send Consumption Information (`PUT /inApps/v2/transactions/consumption/{transactionId}`). - Returns: Apple's
    /// status: 202 accepted; another 4xx means Apple refused this body (not worth sending again).
    public func sendConsumptionInformation(transactionId: String, body: [UInt8]) async throws -> (
        status: Int, body: [UInt8]
    ) {
        // The ID comes from a verified request: only what a URL would resolve as a path step is refused here.
        guard !["", ".", ".."].contains(transactionId) else {
            throw FetchError.invalidIdentifier(kind: "transaction ID", value: transactionId)
        }
        let name = "Send Consumption Information for \(transactionId)"
        let (status, answer) = try await exchange(
            "PUT", "/inApps/v2/transactions/consumption/" + Self.escaped(transactionId), body: body, name: name,
            retriesUnanswered: false)
        return (status, answer)
    }

    /// A JSON page: 200 is the answer, any other status that is not retried stops with ``FetchError/rejected``.
    private func send(_ method: String, _ path: String, body: [UInt8]?, name: String) async throws -> JSONObject {
        let (status, bytes) = try await exchange(method, path, body: body, name: name)
        guard status == 200 else {
            throw FetchError.rejected(status: status, request: name, body: String(decoding: bytes, as: UTF8.self))
        }
        guard case .object(let object)? = try? JSONParser.parse(bytes) else {
            throw FetchError.badResponse(request: name, reason: "the body is not a JSON object")
        }
        return object
    }

    /// One request until Apple answers something final: 429 / retryable 5xx / network failures are retried
    /// (``RetryPolicy``), 401 / 403 stop with ``FetchError/unauthorized``, anything else is returned.
    private func exchange(
        _ method: String, _ path: String, body: [UInt8]?, name: String, retriesUnanswered: Bool = true
    ) async throws -> (Int, [UInt8]) {
        try await RetryingExchange.run(
            retry: retry, name: name, bodyLimit: Self.bodyLimit, retriesUnanswered: retriesUnanswered,
            onRetry: { notice in
                self.lock.withLock { self.counters.retries += 1 }
                self.retried(notice)
            }
        ) {
            var headers = [("Authorization", "Bearer " + (try self.bearerToken())), ("User-Agent", "iaplens")]
            if body != nil { headers.append(("Content-Type", "application/json")) }
            self.lock.withLock { self.counters.requests += 1 }
            // A request that acts goes over a connection of its own (HTTPTransport's reusesConnections), so that
            // libcurl never sends it a second time by itself.
            let transport = retriesUnanswered ? self.transport : self.actionTransport
            let answer = try await transport.send(
                method: method, url: self.baseURL + path, headers: headers, body: body, limit: Self.bodyLimit)
            if answer.status == 401 || answer.status == 403 {
                throw FetchError.unauthorized(
                    status: answer.status, keyId: self.key.keyId, issuerId: self.key.issuerId,
                    bundleId: self.key.bundleId)
            }
            return answer
        }
    }

    /// The largest answer read: Apple's pages are far smaller.
    static let bodyLimit = 16 << 20

    private static func escaped(_ value: String) -> String {
        PercentEncoding.escaped(value)
    }

    /// Apple's transaction IDs are digits: anything else (`.` and `..` among them, which a URL resolves as path
    /// steps) is refused before a request is made.
    static func isTransactionId(_ value: String) -> Bool {
        (1...32).contains(value.utf8.count)
            && value.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    static func checkTransactionId(_ value: String) throws {
        guard isTransactionId(value) else { throw FetchError.invalidIdentifier(kind: "transaction ID", value: value) }
    }

    /// Apple's order IDs are letters and digits (`MK5TTTVWJH`).
    static func isOrderId(_ value: String) -> Bool {
        (1...64).contains(value.utf8.count)
            && value.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
            }
    }
}
