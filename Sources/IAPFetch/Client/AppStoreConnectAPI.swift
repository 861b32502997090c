import Foundation
import IAPFormats

/// The App Store Connect API, as `fetch` uses it: Download Finance Reports (`GET /v1/financeReports`). A different API
/// from the App Store Server API: its own key and token (``AppStoreConnectKey``), its own error body
/// (`{"errors":[{"status","code","title","detail"}]}`), gzip answers. Retries what may be retried, like
/// ``AppStoreServerAPI``.
public final class AppStoreConnectAPI: @unchecked Sendable {
    /// Apple's base URL.
    public static let baseURL = "https://api.appstoreconnect.apple.com"

    /// What Apple answered for one fiscal month.
    public enum ReportAnswer: Sendable, Equatable {
        /// The report, as the gzip bytes Apple sent.
        case report([UInt8])
        /// 404: not published yet, or a month without sales.
        case notPublished
    }

    private let baseURL: String
    private let key: AppStoreConnectKey
    private let retry: RetryPolicy
    private let transport: HTTPTransport
    private let lock = NSLock()
    private var cachedToken: (token: String, expiresAt: Int64)?
    private(set) var requests = 0
    private(set) var retries = 0

    /// Told each retry as a sentence (``RetryingExchange``), for the run's progress.
    private let retried: @Sendable (String) -> Void

    public init(
        key: AppStoreConnectKey, baseURL: String = AppStoreConnectAPI.baseURL, retry: RetryPolicy = RetryPolicy(),
        retried: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.key = key
        self.retried = retried
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.retry = retry
        // Apple's API never redirects: the transport never follows one, and RetryingExchange refuses it.
        transport = HTTPTransport(idleTimeout: .seconds(120))
    }

    public func shutdown() async {
        transport.shutdown()
    }

    /// Download Finance Reports: the detailed report (`FINANCE_DETAIL`, region `Z1`) of one fiscal month.
    public func financeDetail(month: String, vendorNumber: String) async throws -> ReportAnswer {
        let query = [
            ("filter[reportType]", "FINANCE_DETAIL"), ("filter[regionCode]", "Z1"), ("filter[reportDate]", month),
            ("filter[vendorNumber]", vendorNumber),
        ].map { Self.escaped($0.0) + "=" + Self.escaped($0.1) }.joined(separator: "&")
        let name = "Download Finance Reports for \(month)"
        let (status, bytes) = try await exchange("/v1/financeReports?" + query, name: name)
        switch status {
        case 200:
            guard bytes.count >= 2, bytes[0] == 0x1f, bytes[1] == 0x8b else {
                throw FetchError.badResponse(request: name, reason: "the answer is not the gzip report Apple sends")
            }
            return .report(bytes)
        case 404:
            return .notPublished
        default:
            let (code, detail) = Self.error(bytes)
            throw FetchError.connectRejected(status: status, request: name, code: code, detail: detail)
        }
    }

    /// The first entry of Apple's `errors` array: its code and detail.
    static func error(_ bytes: [UInt8]) -> (code: String, detail: String) {
        guard case .object(let body)? = try? JSONParser.parse(bytes), case .array(let errors)? = body["errors"],
            case .object(let first)? = errors.first
        else { return ("no error code", String(decoding: bytes.prefix(300), as: UTF8.self)) }
        return (
            first["code"]?.stringValue ?? "no error code",
            first["detail"]?.stringValue ?? first["title"]?.stringValue ?? ""
        )
    }

    private func bearerToken() throws(FetchError) -> String {
        let now = Int64(Date().timeIntervalSince1970)
        if let cached = lock.withLock({ cachedToken }), cached.expiresAt - now > 5 * 60 { return cached.token }
        let token = try key.token(issuedAt: now)
        lock.withLock { cachedToken = (token, now + AppStoreConnectKey.maximumLifetimeSeconds) }
        return token
    }

    private func exchange(_ path: String, name: String) async throws -> (Int, [UInt8]) {
        try await RetryingExchange.run(
            retry: retry, name: name, bodyLimit: Self.bodyLimit,
            onRetry: { notice in
                self.lock.withLock { self.retries += 1 }
                self.retried(notice)
            }
        ) {
            let headers = [
                ("Authorization", "Bearer " + (try self.bearerToken())),
                ("Accept", "application/a-gzip, application/json"),
                ("User-Agent", "iaplens"),
            ]
            self.lock.withLock { self.requests += 1 }
            let answer = try await self.transport.send(
                method: "GET", url: self.baseURL + path, headers: headers, body: nil, limit: Self.bodyLimit)
            if answer.status == 401 || answer.status == 403 {
                throw FetchError.connectUnauthorized(
                    status: answer.status, keyId: self.key.keyId, issuerId: self.key.issuerId,
                    detail: Self.error(answer.body).detail)
            }
            return answer
        }
    }

    private static func escaped(_ value: String) -> String {
        PercentEncoding.escaped(value)
    }

    /// The largest answer taken: a month of a large app's detailed report is a few MB compressed, so 64 MiB is far
    /// past any real one, and a hostile answer is cut there (memory stays under the 200 MB every stage keeps to).
    static let bodyLimit = 64 << 20
}
