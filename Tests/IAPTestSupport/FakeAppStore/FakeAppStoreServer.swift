import Foundation
import IAPFetch
import IAPFormats
import NIOCore
import NIOHTTP1
import NIOPosix

/// A fake App Store Server API on loopback for the fetch tests: it checks every bearer token exactly as Apple
/// documents it (ES256 with the expected key, `kid`, `typ`, `iss`, `aud`, `bid`, `iat`/`exp` within an hour and not
/// expired), pages like Apple (20 records per page), and injects faults by request number.
public final class FakeAppStoreServer: @unchecked Sendable {
    public let keyId: String
    public let issuerId: String
    public let bundleId: String
    private let key: ES256Key
    private let lock = NSLock()
    private var data: FakeAppStoreData
    private var faults: [Int: FakeFault]
    private var hostility = FakeHostility()
    private var requestCount = 0
    private var log: [String] = []
    private var tokenProblems: [String] = []
    private var consumptionBodies: [(transactionId: String, body: String)] = []
    private let group: MultiThreadedEventLoopGroup
    /// The App Store Connect API key the fake accepts for financial reports (a team key, not the In-App Purchase key).
    private var connectKey: (keyId: String, issuerId: String, key: ES256Key)?
    private var channel: (any Channel)?
    public static let pageSize = 20

    public init(
        data: FakeAppStoreData, key: ES256Key, keyId: String, issuerId: String, bundleId: String,
        faults: [Int: FakeFault] = [:]
    ) {
        self.data = data
        self.key = key
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.faults = faults
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    /// Starts listening on 127.0.0.1 and a free port; returns the base URL.
    public func start() throws -> String {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(FakeAppStoreRequestHandler(server: self))
                }
            }
        let channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        self.channel = channel
        return "http://127.0.0.1:\(channel.localAddress?.port ?? 0)"
    }

    public func stop() {
        try? channel?.close().wait()
        try? group.syncShutdownGracefully()
    }

    /// Requests answered or faulted so far, each "METHOD path".
    public var requests: [String] { lock.withLock { log } }
    /// Every way a token differed from what Apple requires (empty when all were right).
    public var badTokens: [String] { lock.withLock { tokenProblems } }

    /// Send Consumption Information bodies Apple accepted, in order.
    public var consumptionAnswers: [(transactionId: String, body: String)] { lock.withLock { consumptionBodies } }

    public func replaceData(_ newData: FakeAppStoreData) { lock.withLock { data = newData } }
    /// Serves `/v1/financeReports` to tokens of this App Store Connect API key.
    public func acceptConnectKey(_ key: ES256Key, keyId: String, issuerId: String) {
        lock.withLock { connectKey = (keyId, issuerId, key) }
    }
    public func setFaults(_ newFaults: [Int: FakeFault]) {
        lock.withLock {
            faults = newFaults; requestCount = 0
        }
    }
    public func setHostility(_ newHostility: FakeHostility) { lock.withLock { hostility = newHostility } }

    // MARK: - Answering

    func answer(method: String, uri: String, headers: HTTPHeaders, body: [UInt8]) -> (
        fault: FakeFault?, status: Int, body: [UInt8]
    ) {
        let (number, fault, snapshot, hostile) = lock.withLock {
            () -> (Int, FakeFault?, FakeAppStoreData, FakeHostility) in
            requestCount += 1
            log.append("\(method) \(uri)")
            return (requestCount, faults[requestCount], data, hostility)
        }
        _ = number
        if uri.hasPrefix("/v1/financeReports") {
            return financeReport(uri: uri, headers: headers, fault: fault, data: snapshot)
        }
        if let problem = checkToken(headers["Authorization"].first ?? "") {
            lock.withLock { tokenProblems.append(problem) }
            return (nil, 401, Array("{\"errorCode\":401,\"errorMessage\":\"\(problem)\"}".utf8))
        }
        if case .status(let status)? = fault { return (fault, status, Array("{\"errorCode\":\(status)}".utf8)) }
        if case .retryAfter(let status, _)? = fault { return (fault, status, Array("{\"errorCode\":\(status)}".utf8)) }
        if case .redirect? = fault { return (fault, 302, []) }
        if case .oversized? = fault { return (fault, 200, []) }  // streamed by the handler, never held whole
        let (path, query) = Self.split(uri)
        if method == "POST", path == "/inApps/v1/notifications/history", let answer = hostile.historyAnswer {
            return (fault, 200, answer)
        }
        if method == "POST", path == "/inApps/v1/notifications/history", hostile.repeatsHistoryToken {
            let token = query["paginationToken"] ?? "loop"
            return (
                fault, 200,
                JSONValue.object(
                    JSONObject([
                        ("notificationHistory", .array([])), ("hasMore", .bool(true)),
                        ("paginationToken", .string(token)),
                    ])
                ).canonicalJSON()
            )
        }
        if method == "GET", path.hasPrefix("/inApps/v2/refund/lookup/") {
            let transactionId = String(path.dropFirst("/inApps/v2/refund/lookup/".count))
            if hostile.unknownTransactions.contains(transactionId)
                || hostile.knownTransactions.map({ !$0.contains(transactionId) }) == true
            {
                return (
                    fault, 404, Array("{\"errorCode\":4040010,\"errorMessage\":\"Transaction id not found.\"}".utf8)
                )
            }
            if hostile.repeatsRefundRevision {
                return (
                    fault, 200,
                    JSONValue.object(
                        JSONObject([
                            ("signedTransactions", .array([])), ("revision", .string(query["revision"] ?? "rev-loop")),
                            ("hasMore", .bool(true)),
                        ])
                    ).canonicalJSON()
                )
            }
        }
        let page: JSONValue?
        if method == "POST", path == "/inApps/v1/notifications/history" {
            page = notificationHistory(body: body, token: query["paginationToken"], data: snapshot)
        } else if method == "GET", path.hasPrefix("/inApps/v2/refund/lookup/") {
            page = refundHistory(
                transactionId: String(path.dropFirst("/inApps/v2/refund/lookup/".count)), revision: query["revision"],
                data: snapshot)
        } else if method == "GET", path.hasPrefix("/inApps/v1/lookup/") {
            page = orderLookup(String(path.dropFirst("/inApps/v1/lookup/".count)), data: snapshot)
        } else if method == "PUT", path.hasPrefix("/inApps/v2/transactions/consumption/") {
            let transactionId = String(path.dropFirst("/inApps/v2/transactions/consumption/".count))
            if let problem = Self.consumptionProblem(body) {
                return (fault, 400, Array("{\"errorCode\":4000000,\"errorMessage\":\"\(problem)\"}".utf8))
            }
            lock.withLock { consumptionBodies.append((transactionId, String(decoding: body, as: UTF8.self))) }
            return (fault, 202, [])
        } else {
            page = nil
        }
        guard let page else { return (fault, 404, Array("{\"errorCode\":4040000}".utf8)) }
        return (fault, 200, page.canonicalJSON())
    }

    private func notificationHistory(body: [UInt8], token: String?, data: FakeAppStoreData) -> JSONValue? {
        guard case .object(let request)? = try? JSONParser.parse(body),
            let start = request["startDate"]?.numberValue?.int64, let end = request["endDate"]?.numberValue?.int64
        else { return nil }
        let items = data.notifications.filter { $0.signedDate >= start && $0.signedDate < end }.sorted {
            $0.signedDate < $1.signedDate
        }
        let offset = token.flatMap { Int($0.dropFirst("page-".count)) } ?? 0
        let slice = items.dropFirst(offset).prefix(Self.pageSize)
        let hasMore = offset + slice.count < items.count
        var pairs: [(String, JSONValue)] = [
            (
                "notificationHistory",
                .array(
                    slice.map {
                        .object(
                            JSONObject([("signedPayload", .string($0.signedPayload)), ("sendAttempts", .array([]))]))
                    })
            ),
            ("hasMore", .bool(hasMore)),
        ]
        if hasMore { pairs.append(("paginationToken", .string("page-\(offset + slice.count)"))) }
        return .object(JSONObject(pairs))
    }

    private func refundHistory(transactionId: String, revision: String?, data: FakeAppStoreData) -> JSONValue? {
        let customer = data.customerOf[transactionId] ?? transactionId
        let items = (data.refunds[customer] ?? []).sorted { $0.revocationDate < $1.revocationDate }
        let offset = revision.flatMap { Int($0.dropFirst("rev-".count)) } ?? 0
        let slice = items.dropFirst(offset).prefix(Self.pageSize)
        let after = offset + slice.count
        return .object(
            JSONObject([
                ("signedTransactions", .array(slice.map { .string($0.signedTransaction) })),
                ("revision", .string("rev-\(after)")), ("hasMore", .bool(after < items.count)),
            ]))
    }

    private func orderLookup(_ orderId: String, data: FakeAppStoreData) -> JSONValue? {
        let order = data.orders[orderId] ?? (status: 1, signedTransactions: [])
        return .object(
            JSONObject([
                ("status", .number(JSONNumber(order.status))),
                ("signedTransactions", .array(order.signedTransactions.map { .string($0) })),
            ]))
    }

    /// nil when the body follows Apple's rules for Send Consumption Information (V2): `customerConsented` true,
    /// `deliveryStatus` one of Apple's, `sampleContentProvided` a boolean, `consumptionPercentage` 0–100000 if
    /// present, `refundPreference` one of Apple's if present, nothing else.
    static func consumptionProblem(_ body: [UInt8]) -> String? {
        guard case .object(let object)? = try? JSONParser.parse(body) else { return "not a JSON object" }
        let known: Set = [
            "customerConsented", "deliveryStatus", "sampleContentProvided", "consumptionPercentage", "refundPreference",
        ]
        if let unknown = object.keys.first(where: { !known.contains($0) }) { return "unknown field \(unknown)" }
        guard object["customerConsented"]?.boolValue == true else { return "customerConsented must be true" }
        guard let status = object["deliveryStatus"]?.stringValue, ConsumptionFactsRow.deliveryStatuses.contains(status)
        else {
            return "bad deliveryStatus"
        }
        guard object["sampleContentProvided"]?.boolValue != nil else {
            return "sampleContentProvided must be a boolean"
        }
        if let percentage = object["consumptionPercentage"] {
            guard let value = percentage.numberValue?.int64, (0...100_000).contains(value) else {
                return "bad consumptionPercentage"
            }
        }
        if let preference = object["refundPreference"] {
            guard let value = preference.stringValue, ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"].contains(value) else {
                return "bad refundPreference"
            }
        }
        return nil
    }

    /// Download Finance Reports, as the App Store Connect API answers it: its own token rules and error format.
    private func financeReport(uri: String, headers: HTTPHeaders, fault: FakeFault?, data: FakeAppStoreData) -> (
        fault: FakeFault?, status: Int, body: [UInt8]
    ) {
        func error(_ status: Int, _ code: String, _ detail: String) -> (fault: FakeFault?, status: Int, body: [UInt8]) {
            (
                fault, status,
                Array(
                    "{\"errors\":[{\"status\":\"\(status)\",\"code\":\"\(code)\",\"title\":\"\(code)\",\"detail\":\"\(detail)\"}]}"
                        .utf8)
            )
        }
        if let problem = checkConnectToken(headers["Authorization"].first ?? "") {
            lock.withLock { tokenProblems.append(problem) }
            return error(401, "NOT_AUTHORIZED", problem)
        }
        if case .status(let status)? = fault { return error(status, "FAULT", "injected") }
        let (_, query) = Self.split(uri)
        guard query["filter[reportType]"] == "FINANCE_DETAIL", query["filter[regionCode]"] == "Z1",
            let month = query["filter[reportDate]"], let vendor = query["filter[vendorNumber]"]
        else {
            return error(
                400, "PARAMETER_ERROR.INVALID", "reportType, regionCode, reportDate and vendorNumber are required")
        }
        guard let report = data.financeReports["\(vendor)/\(month)"] else {
            return error(404, "NOT_FOUND", "There were no sales for the date specified.")
        }
        return (fault, 200, report)
    }

    /// The App Store Connect API's token rules: ES256 with the team key, `aud` `appstoreconnect-v1`, no `bid`, `exp`
    /// at most 20 minutes after `iat`.
    private func checkConnectToken(_ authorization: String) -> String? {
        guard let connectKey = lock.withLock({ connectKey }) else { return "no App Store Connect API key accepted" }
        guard authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = authorization.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3,
            let headerBytes = Base64Decoding.decode(parts[0], alphabet: .url),
            let claimBytes = Base64Decoding.decode(parts[1], alphabet: .url),
            let signature = Base64Decoding.decode(parts[2], alphabet: .url),
            case .object(let header)? = try? JSONParser.parse(headerBytes),
            case .object(let claims)? = try? JSONParser.parse(claimBytes)
        else { return "not a compact JWS" }
        guard connectKey.key.verify(signature, of: Array((parts[0] + "." + parts[1]).utf8)) else {
            return "connect: bad signature"
        }
        guard header["alg"]?.stringValue == "ES256", header["kid"]?.stringValue == connectKey.keyId,
            header["typ"]?.stringValue == "JWT"
        else { return "connect: bad header" }
        guard claims["iss"]?.stringValue == connectKey.issuerId, claims["aud"]?.stringValue == "appstoreconnect-v1"
        else {
            return "connect: bad iss/aud"
        }
        guard claims["bid"] == nil else { return "connect: bid in a team key's token" }
        let now = Int64(Date().timeIntervalSince1970)
        guard let iat = claims["iat"]?.numberValue?.int64, let exp = claims["exp"]?.numberValue?.int64,
            iat <= now + 60, exp > now, exp - iat <= 20 * 60
        else { return "connect: bad iat/exp (at most 20 minutes)" }
        return nil
    }

    /// nil when the token is one Apple would accept.
    private func checkToken(_ authorization: String) -> String? {
        guard authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = authorization.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3,
            let headerBytes = Base64Decoding.decode(parts[0], alphabet: .url),
            let claimBytes = Base64Decoding.decode(parts[1], alphabet: .url),
            let signature = Base64Decoding.decode(parts[2], alphabet: .url),
            case .object(let header)? = try? JSONParser.parse(headerBytes),
            case .object(let claims)? = try? JSONParser.parse(claimBytes)
        else { return "not a compact JWS" }
        guard key.verify(signature, of: Array((parts[0] + "." + parts[1]).utf8)) else { return "bad signature" }
        guard header["alg"]?.stringValue == "ES256", header["kid"]?.stringValue == keyId,
            header["typ"]?.stringValue == "JWT"
        else {
            return "bad header"
        }
        guard claims["iss"]?.stringValue == issuerId, claims["aud"]?.stringValue == "appstoreconnect-v1",
            claims["bid"]?.stringValue == bundleId
        else { return "bad iss/aud/bid" }
        let now = Int64(Date().timeIntervalSince1970)
        guard let iat = claims["iat"]?.numberValue?.int64, let exp = claims["exp"]?.numberValue?.int64,
            iat <= now + 60, exp > now, exp - iat <= 3600
        else { return "bad iat/exp" }
        return nil
    }

    private static func split(_ uri: String) -> (String, [String: String]) {
        let pieces = uri.split(separator: "?", maxSplits: 1).map(String.init)
        var query: [String: String] = [:]
        if pieces.count == 2 {
            for pair in pieces[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if kv.count == 2 {
                    query[kv[0].removingPercentEncoding ?? kv[0]] = kv[1].removingPercentEncoding ?? kv[1]
                }
            }
        }
        let path = pieces[0].removingPercentEncoding ?? pieces[0]
        return (path, query)
    }
}
