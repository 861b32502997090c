import Foundation
import IAPFormats
import IAPStore

/// Get Notification History over one window, page by page, resumable: the window and the next page's token are in
/// the store (``FetchCursors``) from the first request on, and the end of the last complete window is where the
/// next fetch starts.
struct NotificationHistoryFetch: Sendable {
    static let windowCursor = "notification_history.window"
    static let doneUntilCursor = "notification_history.done_until"

    let api: AppStoreServerAPI
    let writer: ArchivePageWriter
    let cursors: FetchCursors
    var limits = FetchLimits()
    var deadline = FetchLimits().deadline(from: .now)

    /// - Returns: the pages written, the span fetched (nil when there was nothing to ask for), and the customers
    ///   (original transaction IDs) the pages name, whose refund history a first fetch then asks for.
    ///
    /// A window a killed fetch left unfinished is finished first, whatever this fetch asks for, so an explicit
    /// `--since/--until` never replaces it and leaves its remaining pages unasked (Documentation/Fetching.md "When
    /// Apple's API misbehaves").
    func run(since: Int64?, until: Int64?, now: Int64, progress: @Sendable (String) -> Void) async throws
        -> (pages: Int, window: ClosedRange<Int64>?, customers: Set<String>)
    {
        var pages = 0
        var span: ClosedRange<Int64>?
        var customers: Set<String> = []
        func add(_ result: (pages: Int, window: ClosedRange<Int64>, customers: Set<String>)) {
            pages += result.pages
            span =
                span.map { min($0.lowerBound, result.window.lowerBound)...max($0.upperBound, result.window.upperBound) }
                ?? result.window
            customers.formUnion(result.customers)
        }
        if let saved = try cursors.value(Self.windowCursor).flatMap(WindowState.init(text:)) {
            // A fetch that was killed goes on from the page after the last one saved.
            add(try await fetch(saved, now: now, progress: progress))
            if since == nil && until == nil { return (pages, span, customers) }
        }
        let oldest = now - HistoryCoverage.appleRetentionMs + 60_000
        let doneUntil = try cursors.value(Self.doneUntilCursor).flatMap { Int64($0) }
        let start = max(since ?? doneUntil ?? oldest, oldest)
        let end = until ?? now
        guard start < end else { return (pages, span, customers) }
        let state = WindowState(start: start, end: end, token: nil, page: 0)
        try cursors.set(Self.windowCursor, state.text)
        add(try await fetch(state, now: now, progress: progress))
        return (pages, span, customers)
    }

    /// One window, page by page from where `state` stands, its token saved after each page.
    private func fetch(_ initial: WindowState, now: Int64, progress: @Sendable (String) -> Void) async throws
        -> (pages: Int, window: ClosedRange<Int64>, customers: Set<String>)
    {
        var state = initial
        var written = 0
        var customers: Set<String> = []
        let folder = "notification-history/\(Self.stamp(state.start))_\(Self.stamp(state.end))"
        // A resumed window: the pages saved before the stop name customers too.
        for saved in stride(from: 1, through: state.page, by: 1) {
            for entry in writer.read(folder + "/page-\(String(format: "%05d", saved)).json")?["notificationHistory"]?
                .arrayValue ?? []
            {
                if let customer = Self.originalTransactionId(inHistoryEntry: entry) { customers.insert(customer) }
            }
        }
        while true {
            try deadline.check()
            let page = try await api.notificationHistory(
                start: state.start, end: state.end, paginationToken: state.token)
            guard case .array(let entries)? = page["notificationHistory"] else {
                throw FetchError.badResponse(
                    request: "Get Notification History", reason: "no notificationHistory array")
            }
            for entry in entries {
                if let customer = Self.originalTransactionId(inHistoryEntry: entry) { customers.insert(customer) }
            }
            state.page += 1
            if try writer.write(
                page, receivedAt: Int64(Date().timeIntervalSince1970 * 1000),
                to: folder + "/page-\(String(format: "%05d", state.page)).json")
            {
                written += 1
            }
            progress("notification history: page \(state.page) of \(Self.stamp(state.start))…\(Self.stamp(state.end))")
            let hasMore = page["hasMore"]?.boolValue ?? false
            if hasMore {
                guard let token = page["paginationToken"]?.stringValue, !token.isEmpty else {
                    throw FetchError.badResponse(
                        request: "Get Notification History", reason: "hasMore is true but no paginationToken says where"
                    )
                }
                if token == state.token {
                    throw FetchError.endlessPagination(
                        request: "Get Notification History",
                        reason: "page \(state.page) gave the same paginationToken it was asked with")
                }
                if state.page >= limits.pagesPerWindow {
                    throw FetchError.endlessPagination(
                        request: "Get Notification History",
                        reason: "more than \(limits.pagesPerWindow) pages in one window (FetchLimits)")
                }
                state.token = token
                try cursors.set(Self.windowCursor, state.text)
                continue
            }
            // "Done until" means everything from Apple's 180-day horizon up to it was fetched: only a window that
            // reaches back to the horizon, or to the mark, moves it. A first explicit window of last week must not
            // make plain fetches skip the 173 days before it.
            let doneUntil = (try cursors.value(Self.doneUntilCursor)).flatMap { Int64($0) }
            let horizon = now - HistoryCoverage.appleRetentionMs + 120_000
            let reaches = doneUntil.map { state.start <= $0 } ?? (state.start <= horizon)
            if reaches && state.end > (doneUntil ?? Int64.min) {
                try cursors.set(Self.doneUntilCursor, String(state.end))
            }
            // Every finished window, for `status` to show what was fetched and where the gaps are. A store from
            // before this record starts it from its mark.
            var coverage =
                try cursors.value(HistoryCoverage.cursorName).flatMap(HistoryCoverage.init(text:))
                ?? HistoryCoverage(spans: doneUntil.map { [min(horizon, $0)..<$0] } ?? [])
            coverage.add(state.start..<state.end)
            try cursors.set(HistoryCoverage.cursorName, coverage.text)
            try cursors.set(Self.windowCursor, nil)
            return (written, state.start...state.end, customers)
        }
    }

    /// The `originalTransactionId` of the transaction a history entry's notification carries, read without
    /// verifying: it only chooses whom to ask about; what Apple answers is verified when it is ingested.
    static func originalTransactionId(inHistoryEntry entry: JSONValue) -> String? {
        guard let payload = entry.objectValue?["signedPayload"]?.stringValue.flatMap(unverifiedPayload),
            let transaction = payload["data"]?.objectValue?["signedTransactionInfo"]?.stringValue.flatMap(
                unverifiedPayload)
        else { return nil }
        return transaction["originalTransactionId"]?.stringValue
    }

    private static func unverifiedPayload(_ jws: String) -> JSONObject? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64Decoding.decode(parts[1], alphabet: .url),
            case .object(let object)? = try? JSONParser.parse(bytes)
        else { return nil }
        return object
    }

    /// `20250301T000000Z`: sorts by time and reads as one.
    static func stamp(_ milliseconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// The window in progress.
    struct WindowState: Equatable {
        var start: Int64
        var end: Int64
        var token: String?
        var page: Int

        var text: String {
            var pairs: [(String, JSONValue)] = [
                ("start", .number(JSONNumber(start))), ("end", .number(JSONNumber(end))),
                ("page", .number(JSONNumber(Int64(page)))),
            ]
            if let token { pairs.append(("token", .string(token))) }
            return String(decoding: JSONValue.object(JSONObject(pairs)).canonicalJSON(), as: UTF8.self)
        }

        init(start: Int64, end: Int64, token: String?, page: Int) {
            self.start = start
            self.end = end
            self.token = token
            self.page = page
        }

        init?(text: String) {
            guard case .object(let object)? = try? JSONParser.parse(text),
                let start = object["start"]?.numberValue?.int64, let end = object["end"]?.numberValue?.int64,
                let page = object["page"]?.numberValue?.int64
            else { return nil }
            self.init(start: start, end: end, token: object["token"]?.stringValue, page: Int(page))
        }
    }
}
