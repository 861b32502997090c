import Foundation
import IAPFormats
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

@testable import IAPFetch

/// A server that misbehaves as a broken network or a hostile host would. Before: endless pagination
/// looped while holding the run lock (497 identical pages in 25 s), one 404 for an unknown transaction ended the
/// whole fetch, redirects were followed and their answers saved as Apple's, an oversized body was downloaded eight
/// times, `Retry-After` was ignored, a trickling body held a request for minutes, and a 4xx body could forge log
/// lines.
@Suite struct HostileServerTests {
    typealias Setup = FetchTests.Setup

    private func fetch(_ setup: Setup, _ change: (inout FetchOptions) -> Void = { _ in }) async throws -> FetchSummary {
        var options = try setup.options(
            archive: setup.archive.root + "/archive", database: setup.archive.root + "/s.sqlite")
        change(&options)
        return try await Fetcher(options: options).run()
    }

    private func fetchError(_ setup: Setup, _ change: (inout FetchOptions) -> Void = { _ in }) async -> FetchError? {
        do {
            _ = try await fetch(setup, change)
            return nil
        } catch let error as FetchError {
            return error
        } catch {
            Issue.record("not a FetchError: \(error)")
            return nil
        }
    }

    @Test func historyThatRepeatsItsTokenStopsAtOnce() async throws {
        let setup = try Setup()
        var hostile = FakeHostility()
        hostile.repeatsHistoryToken = true
        setup.server.setHostility(hostile)
        let started = ContinuousClock.now
        let error = await fetchError(setup)
        guard case .endlessPagination(let request, let reason)? = error else {
            Issue.record("expected endless pagination, got \(String(describing: error))")
            return
        }
        #expect(request == "Get Notification History" && reason.contains("same paginationToken"))
        #expect(setup.server.requests.count == 2, "\(setup.server.requests)")
        // Loose: the suite runs in parallel on two cores; looping until killed is what this rules out.
        #expect(ContinuousClock.now - started < .seconds(90))
    }

    /// A history page that says there is more without saying where, or has no list at all, stops the fetch with a
    /// sentence naming what is wrong: it is never read as an empty page that ends the window.
    @Test(arguments: [
        (#"{"notificationHistory":[],"hasMore":true}"#, "hasMore is true but no paginationToken says where"),
        (#"{"hasMore":false,"paginationToken":"t"}"#, "no notificationHistory array"),
    ])
    func aHistoryPageThatCannotBeFollowedStopsTheFetch(_ answer: String, _ reason: String) async throws {
        let setup = try Setup()
        var hostile = FakeHostility()
        hostile.historyAnswer = Array(answer.utf8)
        setup.server.setHostility(hostile)
        let error = await fetchError(setup)
        guard case .badResponse(let request, let said)? = error else {
            Issue.record("expected a bad response, got \(String(describing: error))")
            return
        }
        #expect(request == "Get Notification History" && said == reason)
        #expect(setup.server.requests.count == 1, "\(setup.server.requests)")
    }

    @Test func historyWithoutEndStopsAtThePageLimit() async throws {
        let setup = try Setup()
        var hostile = FakeHostility()
        hostile.repeatsHistoryToken = true
        setup.server.setHostility(hostile)
        // A token that changes every page is not caught by the repeat check: the page limit stops it.
        let error = await fetchError(setup) { $0.limits.pagesPerWindow = 1 }
        guard case .endlessPagination? = error else {
            Issue.record("expected endless pagination, got \(String(describing: error))")
            return
        }
        #expect(setup.server.requests.count == 1)
    }

    @Test func refundHistoryThatRepeatsItsRevisionStops() async throws {
        let setup = try Setup()
        var hostile = FakeHostility()
        hostile.repeatsRefundRevision = true
        setup.server.setHostility(hostile)
        let error = await fetchError(setup)
        guard case .endlessPagination(let request, _)? = error else {
            Issue.record("expected endless pagination, got \(String(describing: error))")
            return
        }
        #expect(request.hasPrefix("Get Refund History"))
        #expect(setup.server.requests.count < 40, "\(setup.server.requests.count) requests")
    }

    @Test func aTransactionAppleDoesNotKnowIsRecordedAndTheOthersAreAsked() async throws {
        // Which customers a fetch asks about, from a clean run.
        let clean = try Setup("clean")
        _ = try await fetch(clean)
        let asked = clean.server.requests.filter { $0.contains("/refund/lookup/") }
        let ids = asked.compactMap { $0.split(separator: "/").last?.split(separator: "?").first.map(String.init) }
        try #require(ids.count == 16)
        // Apple does not know the first one.
        let setup = try Setup()
        var hostile = FakeHostility()
        hostile.unknownTransactions = [ids[0]]
        setup.server.setHostility(hostile)
        let summary = try await fetch(setup)
        #expect(summary.customers == 16 && summary.customersUnknown == 1)
        #expect(summary.refundPages == 4, "every other customer's refunds were fetched")
        #expect(summary.warnings.contains { $0.contains("4040010") })
        // Once the archive is ingested, the store's customers are asked about, the unknown one not again.
        try setup.runPipeline(
            inputs: [setup.archive.root + "/archive"], database: setup.archive.root + "/s.sqlite",
            reports: setup.archive.root + "/reports")
        let before = setup.server.requests.count
        let second = try await fetch(setup)
        #expect(second.customers == 15)
        #expect(
            try StoreStatus.read(from: try StoreLocation(setup.archive.root + "/s.sqlite").open())
                .customersUnknownToApple == 1)
        #expect(!setup.server.requests.dropFirst(before).contains { $0.contains("/refund/lookup/\(ids[0])") })
    }

    /// A real-shaped store: the app's Production documents beside Sandbox ones and another app's, and an Apple that
    /// knows only the Production transactions. Before: the first Sandbox transaction asked about ended the fetch.
    @Test func refundHistoryForAllAsksOnlyAboutThisAppsProductionCustomers() async throws {
        let setup = try Setup()
        _ = try await fetch(setup) { $0.refundHistoryForAll = false }
        let day: Int64 = 86_400_000
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var sandbox = setup.world.app
        sandbox.environment = "Sandbox"
        var otherApp = setup.world.app
        otherApp.bundleId = "com.example.other"
        var lines: [String] = []
        for (index, fixture) in [sandbox, otherApp].enumerated() {
            for number in 0..<5 {
                let id = "9\(index)0000\(100 + number)"
                let bought = now - Int64(20 + number) * day
                lines.append(
                    try fixture.notification(
                        type: "SUBSCRIBED", uuid: "extra-\(index)-\(number)", signedDate: bought,
                        transaction: fixture.transaction(
                            id: id, purchase: bought, expires: bought + 30 * day, signedDate: bought),
                        renewal: fixture.renewal(original: id, signedDate: bought)))
            }
        }
        try setup.archive.write("others.jsonl", lines: lines)
        try setup.runPipeline(
            inputs: [setup.archive.root + "/archive", setup.archive.inputs], database: setup.archive.root + "/s.sqlite",
            reports: setup.archive.root + "/reports")
        let store = try StoreLocation(setup.archive.root + "/s.sqlite").open()
        #expect(
            try StoreStatus.read(from: store).documentsByEnvironment.first { $0.label == "Sandbox" }?.count == 5,
            "the Sandbox documents are in the store")

        var production = Set((0..<12).map { "2000000\(100 + $0)" })
        production.formUnion((0..<4).map { "3000000\(100 + $0)" })
        var hostile = FakeHostility()
        hostile.knownTransactions = production
        setup.server.setHostility(hostile)
        let before = setup.server.requests.count
        let summary = try await fetch(setup) { $0.notificationHistory = false }
        let asked = Set(
            setup.server.requests.dropFirst(before).compactMap { request -> String? in
                guard request.contains("/refund/lookup/") else { return nil }
                return request.split(separator: "/").last?.split(separator: "?").first.map(String.init)
            })
        #expect(asked == production, "every Production customer of this app, and nobody else, was asked about")
        #expect(summary.customers == 16 && summary.customersUnknown == 0)
        #expect(summary.refundPages == 4)
    }

    @Test func aRedirectIsRefusedAndTheWindowStaysToFetch() async throws {
        let setup = try Setup(faults: [1: .redirect("http://127.0.0.1:9/portal")])
        let error = await fetchError(setup)
        guard case .redirected(_, let status)? = error else {
            Issue.record("expected a refused redirect, got \(String(describing: error))")
            return
        }
        #expect(status == 302)
        #expect(error?.description.contains("never redirects") == true)
        // Nothing was marked as fetched: the next fetch gets the whole window.
        setup.server.setFaults([:])
        let summary = try await fetch(setup)
        #expect(summary.notificationPages == 2)
    }

    @Test func anOversizedAnswerIsNotAskedForAgain() async throws {
        let setup = try Setup(faults: [1: .oversized(17 << 20)])
        let error = await fetchError(setup)
        guard case .tooLarge? = error else {
            Issue.record("expected too large, got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("more than 16 MiB") == true)
        #expect(setup.server.requests.count == 1)
    }

    @Test func retryAfterIsHonoured() async throws {
        let setup = try Setup(faults: [1: .retryAfter(status: 429, seconds: 2)])
        let started = ContinuousClock.now
        let summary = try await fetch(setup)
        #expect(ContinuousClock.now - started >= .seconds(2), "the retry waited as Apple asked")
        #expect(summary.retries >= 1 && summary.notificationPages == 2)
    }

    @Test func aTricklingAnswerCostsOneAttemptTimeoutNotMinutes() async throws {
        // One byte every 2 s: the first page (kilobytes) would take hours.
        let setup = try Setup(faults: [1: .trickle(.seconds(2))])
        let started = ContinuousClock.now
        let summary = try await fetch(setup) {
            $0.retry.attemptTimeout = .seconds(5)
            $0.retry.maximumRequestDuration = .seconds(60)
        }
        #expect(ContinuousClock.now - started < .seconds(90))
        #expect(summary.retries >= 1 && summary.notificationPages == 2)
    }

    @Test func aServerThatNeverAnswersCostsTheRequestBoundNotTheRetriesTimesTheTimeout() async throws {
        let faults = Dictionary(uniqueKeysWithValues: (1...20).map { ($0, FakeFault.delay(.seconds(600))) })
        let setup = try Setup(faults: faults)
        let started = ContinuousClock.now
        let error = await fetchError(setup) {
            $0.retry.attemptTimeout = .seconds(1)
            $0.retry.maximumRequestDuration = .seconds(3)
        }
        guard case .gaveUp? = error else {
            Issue.record("expected gave up, got \(String(describing: error))")
            return
        }
        // At most three one-second attempts fit in the three seconds (before: 8 attempts of 60 s and the waits).
        #expect(setup.server.requests.count <= 3, "\(setup.server.requests)")
        #expect(ContinuousClock.now - started < .seconds(90))
    }

    @Test func aRejectionQuotesTheServerOnOneLine() {
        let error = FetchError.rejected(status: 400, request: "Get X", body: "bad\nERROR forged line\r\u{202E}x")
        #expect(!error.description.contains("\n") && !error.description.contains("\r"))
        #expect(error.description.contains("bad\\nERROR forged line\\r\\u{202e}x"))
    }

    private func cursor(_ setup: Setup, _ name: String) throws -> String? {
        try StoreLocation(setup.archive.root + "/s.sqlite").open().read {
            try $0.text("SELECT value FROM fetch_cursors WHERE name = ?", [.text(name)])
        }
    }

    /// Item 6: an explicit window after a killed fetch once replaced the interrupted window's cursor, so its
    /// remaining pages were never asked for.
    @Test func anInterruptedWindowIsFinishedBeforeAnExplicitOne() async throws {
        // The second history page is refused: the fetch stops with the first window half done.
        let setup = try Setup(faults: [2: .status(401)])
        _ = await fetchError(setup)
        #expect(try cursor(setup, "notification_history.window") != nil)
        setup.server.setFaults([:])
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let summary = try await fetch(setup) {
            $0.since = now - 3_600_000
            $0.until = now
        }
        #expect(
            setup.server.requests.contains { $0.contains("paginationToken=page-20") }, "the rest of the first window")
        #expect(summary.notificationPages >= 2)
        #expect(try cursor(setup, "notification_history.window") == nil)
    }

    /// Item 6: a first explicit window of the last week once set the "done until" mark, and plain fetches then
    /// never asked for the 173 days before it.
    @Test func aFirstExplicitWindowDoesNotMarkTheHistoryBeforeItAsFetched() async throws {
        let setup = try Setup()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        _ = try await fetch(setup) {
            $0.since = now - 7 * 86_400_000
            $0.until = now
            $0.refundHistoryForAll = false
            $0.orderIdsPath = nil
        }
        #expect(try cursor(setup, "notification_history.done_until") == nil)
        // status shows the one window and the 173 days before it as a gap.
        let store = try StoreLocation(setup.archive.root + "/s.sqlite").open()
        var status = try StoreStatus.read(from: store)
        #expect(
            status.historyFetched.count == 1 && status.historyGaps.count == 1,
            "\(status.historyFetched) \(status.historyGaps)")
        #expect(status.historyGaps.first?.hasSuffix(ISO8601Millis.format(now - 7 * 86_400_000)) == true)
        // A plain fetch then covers Apple's whole 180 days, and from then on the mark stands.
        let summary = try await fetch(setup) { $0.refundHistoryForAll = false }
        #expect(summary.notificationPages == 2, "31 notifications over the 180 days")
        #expect(try cursor(setup, "notification_history.done_until") != nil)
        status = try StoreStatus.read(from: store)
        #expect(
            status.historyFetched.count == 1 && status.historyGaps.isEmpty,
            "\(status.historyFetched) \(status.historyGaps)")
    }

    /// Before: `--until 2030-01-01T00:00:00Z` moved "done until" to 2030, and later fetches asked for no history
    /// while `status` said "gaps: none". After: the window ends now (said in the log) and the mark never passes now.
    @Test func aFutureUntilIsClampedToNowAndTheMarkNeverPassesIt() async throws {
        let setup = try Setup()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let summary = try await fetch(setup) {
            $0.until = ISO8601Millis.parse("2030-01-01T00:00:00Z")
            $0.refundHistoryForAll = false
            try? PipelineConfiguration.checkWindow(&$0, historyAsked: true, now: now)
        }
        #expect(
            summary.warnings.contains { $0.contains("--until 2030-01-01T00:00:00Z is in the future") },
            "\(summary.warnings)")
        let mark = try #require(try cursor(setup, "notification_history.done_until").flatMap { Int64($0) })
        #expect(mark <= now)
    }

    /// Before: `--since` after `--until`, in the future, or older than 180 days fetched nothing and exited 0 without a
    /// word. After: each is refused with its reason (exit 64 on the command line).
    @Test func aWindowAppleCannotAnswerIsRefusedWithItsReason() throws {
        let setup = try Setup()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let day: Int64 = 86_400_000
        for (since, until, reason) in [
            (now + day, nil, "in the future"), (now - 2 * day, now - 3 * day, "not before --until"),
            (now - 200 * day, nil, "older than the 180 days"),
        ] as [(Int64, Int64?, String)] {
            var options = try setup.options(
                archive: setup.archive.root + "/archive", database: setup.archive.root + "/s.sqlite")
            options.since = since
            options.until = until
            let error = try #require(throws: PipelineError.self) {
                try PipelineConfiguration.checkWindow(&options, historyAsked: true, now: now)
            }
            #expect(error.description.contains(reason) && error.exitCode == 64, "\(error)")
        }
        // Financial reports alone may start earlier: Apple keeps them for years.
        var finance = try setup.options(
            archive: setup.archive.root + "/archive", database: setup.archive.root + "/s.sqlite")
        finance.since = now - 400 * day
        #expect(throws: Never.self) { try PipelineConfiguration.checkWindow(&finance, historyAsked: false, now: now) }
    }

    /// Before: transaction IDs `.` and `..` went out as raw URL path segments (`/refund/lookup/..` is another path).
    /// After: an ID Apple would not issue refuses the list, naming its line, before any request.
    @Test(arguments: [".", "..", "12/../34", "2000000000000001%2F"])
    func anIDAppleWouldNotIssueIsRefusedBeforeAnyRequest(_ id: String) async throws {
        let setup = try Setup()
        let list = setup.archive.root + "/ids.txt"
        try "2000000000000001\n\(id)\n".write(toFile: list, atomically: true, encoding: .utf8)
        let error = await fetchError(setup) {
            $0.transactionIdsPath = list
            $0.refundHistoryForAll = false
            $0.notificationHistory = false
        }
        guard case .readList(_, let reason)? = error else {
            Issue.record("expected readList, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("line 2"))
        #expect(!setup.server.requests.contains { $0.contains("/refund/lookup/") })
    }

    @Test func historyCoverageMergesTouchingWindowsAndNamesTheGaps() {
        var coverage = HistoryCoverage()
        coverage.add(100..<200)
        coverage.add(300..<400)
        coverage.add(200..<250)  // touches the first
        #expect(coverage.spans == [100..<250, 300..<400])
        #expect(coverage.gaps(after: 50) == [50..<100, 250..<300])
        #expect(HistoryCoverage(text: coverage.text) == coverage)
        #expect(HistoryCoverage(text: "5-3") == nil)
        coverage.add(0..<1_000)
        #expect(coverage.spans == [0..<1_000] && coverage.gaps(after: 50).isEmpty)
    }
}
