import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Testing

@testable import IAPFetch

/// `iaplens fetch` against a fake App Store Server API on loopback.
@Suite struct FetchTests {
    /// A temporary folder, the world, its key, and a fake serving the world.
    final class Setup: @unchecked Sendable {
        let archive: TestArchive
        let world: FetchWorld
        let key: TestAPIKey
        let server: FakeAppStoreServer
        let url: String

        init(_ name: String = #function, faults: [Int: FakeFault] = [:]) throws {
            archive = try TestArchive(name)
            world = try FetchWorld()
            key = try TestAPIKey(folder: archive.root + "/keys")
            server = FakeAppStoreServer(
                data: world.data, key: try key.key(), keyId: key.keyId, issuerId: key.issuerId,
                bundleId: world.app.bundleId,
                faults: faults)
            url = try server.start()
        }

        deinit { server.stop() }

        func options(archive folder: String, database: String) throws -> FetchOptions {
            let orders = archive.root + "/order-ids.txt"
            try (world.orderIds.joined(separator: "\n") + "\n").write(toFile: orders, atomically: true, encoding: .utf8)
            var options = FetchOptions(
                archive: folder, database: database, bundleId: world.app.bundleId, issuerId: key.issuerId,
                keyId: key.keyId,
                privateKeyPath: key.path)
            options.apiURL = url
            options.orderIdsPath = orders
            options.retry = RetryPolicy(
                maximumAttempts: 5, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(20),
                maximumTotalDelay: .seconds(5))
            return options
        }

        /// What the fetches of this setup told their progress, in order, and their retries apart: a caller that
        /// thins out progress lines still hears of every retry.
        let progressLines = ProgressLines()
        let retryLines = ProgressLines()

        /// Fetches into `folder` (a new archive) and runs the pipeline on it; returns the summary and the figures.
        func fetchAndRun(into folder: String, database: String, reports: String) async throws -> (
            FetchSummary, [String: String]
        ) {
            let (lines, retries) = (progressLines, retryLines)
            let summary = try await Fetcher(options: try options(archive: folder, database: database)).run(
                progress: { lines.append($0) }, retried: { retries.append($0) })
            try runPipeline(inputs: [folder], database: database, reports: reports)
            return (summary, FetchWorld.figures(reports))
        }

        func runPipeline(inputs: [String], database: String, reports: String) throws {
            let configuration = try archive.configuration(world.app) { configuration in
                configuration.inputs = inputs
                configuration.databasePath = database
                configuration.reportsDirectory = reports
            }
            _ = try Pipeline(configuration: configuration).run()
        }

        /// The same data given as files.
        func figuresFromFiles() throws -> [String: String] {
            for (name, lines) in world.fileLines { try archive.write(name, lines: lines) }
            try runPipeline(
                inputs: [archive.inputs], database: archive.root + "/files.sqlite",
                reports: archive.root + "/files-reports")
            return FetchWorld.figures(archive.root + "/files-reports")
        }
    }

    /// A scheduled `run` whose fetch Apple or the network cut short stopped there: no ingest of the files already in
    /// the archive, no reports that day. It now goes on with what the archive holds, says why the fetch stopped, and
    /// ends 75 (try later) so the next run fetches again.
    @Test func aRunWhoseFetchIsCutShortStillReportsTheArchiveAtHand() async throws {
        // Apple's first answer is a redirect (a captive portal): the fetch stops at once, as it must.
        let setup = try Setup(faults: [1: .redirect("http://127.0.0.1:1/portal")])
        let expected = try setup.figuresFromFiles()
        let configuration = try setup.archive.configuration(setup.world.app) { configuration in
            configuration.inputs = [setup.archive.inputs]
            configuration.databasePath = setup.archive.root + "/run.sqlite"
            configuration.reportsDirectory = setup.archive.root + "/run-reports"
            configuration.fetch.issuerId = setup.key.issuerId
            configuration.fetch.keyId = setup.key.keyId
            configuration.fetch.privateKey = setup.key.path
            configuration.fetch.apiURL = setup.url
            configuration.fetch.archive = setup.archive.root + "/fetched"
        }
        let summary = try await Pipeline(configuration: configuration).runAll()
        guard case .redirected? = summary.fetchFailure else {
            Issue.record("expected the redirect to stop the fetch, got \(String(describing: summary.fetchFailure))")
            return
        }
        #expect(summary.fetch == nil && summary.ingest.accepted > 0)
        #expect(FetchWorld.figures(setup.archive.root + "/run-reports") == expected, "the archive at hand, reported")
    }

    @Test func aFetchWithFaultsGivesTheFiguresOfTheSameDataAsFiles() async throws {
        // A 429, a 500, a dropped connection and a slow answer among the first requests.
        let setup = try Setup(faults: [2: .status(429), 3: .status(500), 5: .drop, 7: .delay(.milliseconds(300))])
        let expected = try setup.figuresFromFiles()
        #expect(expected.count >= 14, "the files give a report set")
        #expect(expected.contains { $0.key.hasSuffix("refunds.csv") && $0.value.split(separator: "\n").count > 1 })
        let (summary, figures) = try await setup.fetchAndRun(
            into: setup.archive.root + "/fetched-archive", database: setup.archive.root + "/fetched.sqlite",
            reports: setup.archive.root + "/fetched-reports")
        #expect(setup.server.badTokens.isEmpty, "\(setup.server.badTokens)")
        // The 429 and the 500 are retried by RetryingExchange; the dropped connection, a reused one, is sent again
        // by libcurl itself (a read is safe to repeat; a request that acts never shares a connection).
        #expect(summary.retries >= 2)
        // Each retry is told as it happens, with what failed and when the next attempt is: a run waiting in backoff
        // is not a run that hangs.
        let told = setup.retryLines.all
        #expect(
            told.allSatisfy { $0.contains("; trying again in ") }
                && !setup.progressLines.all.contains { $0.contains("trying again") })
        #expect(
            told.contains { $0.contains(": HTTP 429; trying again in ") && $0.contains("(attempt 2 of ") }, "\(told)")
        #expect(told.contains { $0.contains(": HTTP 500; trying again in ") }, "\(told)")
        #expect(summary.notificationPages == 2, "31 notifications, 20 a page")
        #expect(summary.customers == 16)
        #expect(summary.refundPages == 4)
        #expect(summary.ordersLookedUp == 2)
        let differing = Set(expected.keys).union(figures.keys).filter { expected[$0] != figures[$0] }.sorted()
        #expect(differing.isEmpty, "differ: \(differing)")
    }

    @Test(arguments: StoreKind.allCases)
    func aSecondFetchWithNothingNewAsksOncePerEndpointAndCustomer(engine: StoreKind) async throws {
        let setup = try Setup()
        let folder = setup.archive.root + "/fetched-archive"
        let database = try engine.freshDatabase(in: setup.archive.root)
        _ = try await setup.fetchAndRun(into: folder, database: database, reports: setup.archive.root + "/r1")
        let before = setup.server.requests.count
        let second = try await Fetcher(options: try setup.options(archive: folder, database: database)).run()
        // One history page for the short new window, one refund-history request per customer from its saved
        // revision, no order lookup (both were looked up).
        #expect(second.requests == 1 + 16, "\(setup.server.requests.dropFirst(before))")
        #expect(second.notificationPages == 1 && second.refundPages == 0 && second.ordersAlreadyLookedUp == 2)
        #expect(setup.server.requests.dropFirst(before).filter { $0.contains("revision=rev-") }.count == 16)
    }

    @Test func aFetchStoppedMidwayResumesWithoutGapsOrDuplicates() async throws {
        // Apple refuses the token at the second history page: the fetch stops after saving the first.
        let setup = try Setup(faults: [2: .status(401)])
        let folder = setup.archive.root + "/fetched-archive"
        let database = setup.archive.root + "/fetched.sqlite"
        await #expect(throws: FetchError.self) {
            _ = try await Fetcher(options: try setup.options(archive: folder, database: database)).run()
        }
        setup.server.setFaults([:])
        let (_, figures) = try await setup.fetchAndRun(
            into: folder, database: database, reports: setup.archive.root + "/resumed")
        let expected = try setup.figuresFromFiles()
        let differing = Set(expected.keys).union(figures.keys).filter { expected[$0] != figures[$0] }.sorted()
        #expect(differing.isEmpty, "differ: \(differing)")
        let pages =
            FileManager.default.enumerator(atPath: folder + "/fetched/notification-history")?.allObjects
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".json") } ?? []
        #expect(pages.count == 2, "the page saved before the stop is not saved again: \(pages)")
        // The resumed window asked for the second page with the saved token.
        #expect(setup.server.requests.contains { $0.contains("paginationToken=page-20") })
    }

    @Test func aRefusedTokenStopsWithASentenceNamingTheKey() async throws {
        let setup = try Setup()
        let other = try TestAPIKey(
            folder: setup.archive.root + "/other-key", keyId: setup.key.keyId, issuerId: setup.key.issuerId)
        var options = try setup.options(archive: setup.archive.root + "/a", database: setup.archive.root + "/s.sqlite")
        options.privateKeyPath = other.path
        do {
            _ = try await Fetcher(options: options).run()
            Issue.record("a token signed with another key was accepted")
        } catch let error as FetchError {
            #expect(error.description.contains(setup.key.keyId) && error.description.contains(setup.key.issuerId))
            #expect(error.description.contains("HTTP 401"))
        }
        #expect(setup.server.badTokens == ["bad signature"])
        #expect(setup.server.requests.count == 1, "a 401 is not retried")
    }

    @Test func theTokenIsTheOneAppleDocuments() throws {
        let folder = NSTemporaryDirectory() + "iaplens-key-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let testKey = try TestAPIKey(folder: folder)
        let (key, warning) = try AppStoreAPIKey.load(
            path: testKey.path, keyId: testKey.keyId, issuerId: testKey.issuerId, bundleId: "com.example.tests")
        #expect(warning == nil)
        let token = try key.token(issuedAt: 1_700_000_000)
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let header = try JSONParser.parse(Base64Decoding.decode(parts[0], alphabet: .url) ?? [])
        let claims = try JSONParser.parse(Base64Decoding.decode(parts[1], alphabet: .url) ?? [])
        #expect(
            header
                == .object(
                    JSONObject([("alg", .string("ES256")), ("kid", .string(testKey.keyId)), ("typ", .string("JWT"))])))
        #expect(claims.objectValue?["aud"]?.stringValue == "appstoreconnect-v1")
        #expect(claims.objectValue?["iss"]?.stringValue == testKey.issuerId)
        #expect(claims.objectValue?["bid"]?.stringValue == "com.example.tests")
        let iat = claims.objectValue?["iat"]?.numberValue?.int64, exp = claims.objectValue?["exp"]?.numberValue?.int64
        #expect(iat == 1_700_000_000 && exp != nil && exp! - iat! <= 3600 && exp! > iat!)
        #expect(
            try testKey.key().verify(
                Base64Decoding.decode(parts[2], alphabet: .url) ?? [], of: Array((parts[0] + "." + parts[1]).utf8)))
        // A key others can read is used, with a warning.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: testKey.path)
        let (_, loose) = try AppStoreAPIKey.load(
            path: testKey.path, keyId: testKey.keyId, issuerId: testKey.issuerId, bundleId: "b")
        #expect(loose?.contains("chmod 600") == true)
        #expect(throws: FetchError.self) {
            _ = try AppStoreAPIKey.load(path: folder + "/missing.p8", keyId: "k", issuerId: "i", bundleId: "b")
        }
    }

    @Test func aRequestAppleRejectsStopsTheFetchNamingIt() async throws {
        let setup = try Setup(faults: [1: .status(400)])
        do {
            _ = try await Fetcher(
                options: try setup.options(
                    archive: setup.archive.root + "/a", database: setup.archive.root + "/s.sqlite")
            ).run()
            Issue.record("a 400 did not stop the fetch")
        } catch let error as FetchError {
            #expect(error.description.contains("Get Notification History") && error.description.contains("HTTP 400"))
        }
        #expect(setup.server.requests.count == 1, "a 400 is not retried")
    }

    @Test func theBoundedParallelLoopRunsEveryItemOnce() async throws {
        #expect(try await Fetcher.forEach([], concurrency: 4) { _, _ in 1 } == 0)
        let seen = Counter()
        let total = try await Fetcher.forEach((0..<25).map(String.init), concurrency: 4) { index, item in
            #expect(String(index) == item)
            seen.add()
            return 2
        }
        #expect(total == 50 && seen.value == 25)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}

/// Progress lines collected from the fetch's threads.
final class ProgressLines: @unchecked Sendable {
    // @unchecked: `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
