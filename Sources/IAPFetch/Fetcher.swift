import Foundation
import IAPFinanceFiles
import IAPFormats
import IAPStore

/// Runs a fetch: notification history, then refund history, then order lookups, each page into the archive before
/// its cursor moves in the store. Holds the store's run lock throughout, like every stage.
public struct Fetcher: Sendable {
    public let options: FetchOptions

    public init(options: FetchOptions) {
        self.options = options
    }

    /// - Parameters:
    ///   - lockHeld: true when the caller holds the store's run lock for its whole run (`iaplens run`); otherwise the
    ///     fetch takes it.
    ///   - progress: a line per page or report, which a caller may thin out.
    ///   - retried: a line per retry, as it happens (nil: `progress`). Each one says why the fetch is waiting, so a
    ///     caller that thins out `progress` passes every one of these.
    public func run(
        lockHeld: Bool = false, progress: @escaping @Sendable (String) -> Void = { _ in },
        retried: (@Sendable (String) -> Void)? = nil
    ) async throws -> FetchSummary {
        let retried = retried ?? progress
        var summary = FetchSummary()
        summary.warnings += options.notes
        let key: AppStoreAPIKey?
        if options.serverAPI {
            let (loaded, warning) = try AppStoreAPIKey.load(
                path: options.privateKeyPath, keyId: options.keyId, issuerId: options.issuerId,
                bundleId: options.bundleId)
            key = loaded
            if let warning { summary.warnings.append(warning) }
        } else {
            key = nil
        }
        let connect = try options.finance.map { finance in
            let (loaded, warning) = try AppStoreConnectKey.load(
                path: finance.privateKeyPath, keyId: finance.keyId, issuerId: finance.issuerId)
            if let warning { summary.warnings.append(warning) }
            return AppStoreConnectAPI(
                key: loaded, baseURL: finance.apiURL ?? AppStoreConnectAPI.baseURL, retry: options.retry,
                retried: retried)
        }
        let location = try StoreLocation(options.database)
        let lock = lockHeld ? nil : try location.lockForRun(command: "fetch")
        defer { withExtendedLifetime(lock) {} }
        let store = try location.open()
        let cursors = FetchCursors(store: store)
        let writer = ArchivePageWriter(archive: options.archive)
        // Each retry is said as it happens: with Apple or the network down, a fetch waits minutes in backoff.
        let api = key.map {
            AppStoreServerAPI(
                key: $0, baseURL: options.apiURL ?? options.environment.baseURL, retry: options.retry, retried: retried)
        }
        do {
            if let api {
                try await fetch(api: api, writer: writer, cursors: cursors, summary: &summary, progress: progress)
            }
            if let connect {
                try await fetchFinance(
                    api: connect, writer: writer, cursors: cursors, summary: &summary, progress: progress)
            }
        } catch {
            await api?.shutdown()
            await connect?.shutdown()
            throw error
        }
        await api?.shutdown()
        await connect?.shutdown()
        summary.requests = (api?.counts.requests ?? 0) + (connect?.requests ?? 0)
        summary.retries = (api?.counts.retries ?? 0) + (connect?.retries ?? 0)
        return summary
    }

    /// The financial reports of the fiscal months the store's data spans (and this fetch's history window).
    private func fetchFinance(
        api: AppStoreConnectAPI, writer: ArchivePageWriter, cursors: FetchCursors, summary: inout FetchSummary,
        progress: @escaping @Sendable (String) -> Void
    ) async throws {
        guard let finance = options.finance else { return }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var span = try cursors.activitySpan()
        if let window = summary.notificationWindow {
            span = span.map { min($0.lowerBound, window.lowerBound)...max($0.upperBound, window.upperBound) } ?? window
        }
        if let since = options.since {
            let until = options.until ?? now
            span = span.map { min($0.lowerBound, since)...max($0.upperBound, until) } ?? (since...max(since, until))
        }
        guard let span else {
            summary.warnings.append(
                "no financial report was asked for: the store holds no data yet and no --since was given, so no month is known; ingest the archive first, or pass --since."
            )
            return
        }
        // Apple dates reports in Pacific Time: a fiscal month has ended once its last day is over there.
        let offset = Int64(AppleReportTimeZone.zone.secondsFromGMT(for: Date())) * 1000
        guard let today = ReportDay(daysSinceEpoch: Int((now + offset) / CivilCalendar.millisecondsPerDay)) else {
            return
        }
        let months = FinanceReportFetch.months(span: span, today: today)
        let job = FinanceReportFetch(
            api: api, writer: writer, cursors: cursors, vendorNumber: finance.vendorNumber,
            vendorName: finance.vendorName)
        let result = try await job.run(months: months, progress: progress)
        summary.financeReportsSaved = result.saved
        summary.financeReportsAlreadySaved = result.alreadySaved
        summary.financeMonthsWithoutReport = result.withoutReport
        summary.financeMonthsPending = result.pending
        for refusal in result.refused {
            summary.warnings.append(
                "the financial report of fiscal month \(refusal) was not saved; it is asked again on the next fetch.")
        }
    }

    private func fetch(
        api: AppStoreServerAPI, writer: ArchivePageWriter, cursors: FetchCursors, summary: inout FetchSummary,
        progress: @escaping @Sendable (String) -> Void
    ) async throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let deadline = options.limits.deadline(from: .now)
        var historyCustomers: Set<String> = []
        if options.notificationHistory {
            let history = NotificationHistoryFetch(
                api: api, writer: writer, cursors: cursors, limits: options.limits, deadline: deadline)
            let result = try await history.run(since: options.since, until: options.until, now: now, progress: progress)
            summary.notificationPages = result.pages
            summary.notificationWindow = result.window
            historyCustomers = result.customers
        }

        var named = try options.transactionIdsPath.map { try Self.readList($0, kind: "transaction ID") } ?? []
        if options.refundHistoryForAll {
            named += try cursors.knownCustomers(environment: options.environment.rawValue, bundleId: options.bundleId)
            for customer in historyCustomers where try cursors.value(RefundHistoryFetch.unknownCursor(customer)) == nil
            {
                named.append(customer)
            }
        }
        // IDs from the store's data are Apple's; one that is not digits is not asked about (it came from a document
        // accepted without a check, or a hand-edited store).
        let customers = Array(Set(named.filter(AppStoreServerAPI.isTransactionId))).sorted()
        summary.customers = customers.count
        let refunds = RefundHistoryFetch(
            api: api, writer: writer, cursors: cursors, limits: options.limits, deadline: deadline)
        let started = Date()
        let unknown = UnknownCounter()
        summary.refundPages = try await Self.forEach(customers, concurrency: options.concurrency) { index, customer in
            let result = try await refunds.run(customer: customer)
            if result.isUnknown { unknown.add() }
            let pages = result.pages
            let counts = api.counts
            let done = Double(index + 1)
            let left = Int(Date().timeIntervalSince(started) / done * (Double(customers.count) - done))
            progress(
                "refund history: \(index + 1) of \(customers.count) customers, \(counts.requests) requests, "
                    + "\(counts.retries) retried, about \(left) s left")
            return pages
        }

        summary.customersUnknown = unknown.count
        if summary.customersUnknown > 0 {
            summary.warnings.append(
                "Apple does not know \(summary.customersUnknown) of the transactions asked about (404, error 4040010: "
                    + "another environment's or another app's); they are recorded and not asked about again.")
        }

        let orders = try options.orderIdsPath.map { try Self.readList($0, kind: "order ID") } ?? []
        let lookups = OrderLookupFetch(api: api, writer: writer, cursors: cursors)
        summary.ordersLookedUp = try await Self.forEach(orders, concurrency: options.concurrency) { index, order in
            try deadline.check()
            progress("order lookups: \(index + 1) of \(orders.count)")
            return try await lookups.run(orderId: order, now: now) ? 1 : 0
        }
        summary.ordersAlreadyLookedUp = orders.count - summary.ordersLookedUp
    }

    /// Runs `body` for every item with at most `concurrency` in flight; the sum of what they return. The first
    /// error stops the rest (what finished is saved; the next fetch resumes).
    static func forEach(
        _ items: [String], concurrency: Int, _ body: @escaping @Sendable (Int, String) async throws -> Int
    ) async throws -> Int {
        if items.isEmpty { return 0 }
        return try await withThrowingTaskGroup(of: Int.self) { group in
            var total = 0
            var next = 0
            for _ in 0..<min(max(1, concurrency), items.count) {
                let index = next
                group.addTask { try await body(index, items[index]) }
                next += 1
            }
            while let done = try await group.next() {
                total += done
                if next < items.count {
                    let index = next
                    group.addTask { try await body(index, items[index]) }
                    next += 1
                }
            }
            return total
        }
    }

    /// A count shared by concurrent customers' tasks.
    private final class UnknownCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    /// One ID per line; blank lines and `#` comments skipped; an ID Apple would not issue refuses the list, naming its
    /// line, before any request.
    static func readList(_ path: String, kind: String) throws -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw FetchError.readList(path: path, reason: "it cannot be read")
        }
        var ids: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let id = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if id.isEmpty || id.hasPrefix("#") { continue }
            let valid = kind == "order ID" ? AppStoreServerAPI.isOrderId(id) : AppStoreServerAPI.isTransactionId(id)
            guard valid else {
                throw FetchError.readList(
                    path: path,
                    reason:
                        "line \(index + 1) holds \(FetchError.quoted(id)), not a \(kind) Apple issues (\(kind == "order ID" ? "letters and digits" : "digits only"))"
                )
            }
            ids.append(id)
        }
        return ids
    }
}
