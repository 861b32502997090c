import Foundation
import IAPConsumption
import IAPFetch
import IAPFormats
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// `iaplens consumption` against the fake App Store Server API (Documentation/Pipeline.md "Answering consumption
/// requests").
@Suite struct ConsumptionTests {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// A store holding every case of the spec, analysed, with its facts file.
    final class World: @unchecked Sendable {
        let archive: TestArchive
        let app = AppFixture()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let facts: String
        let ring = "aaaaaaaa-0000-4000-8000-00000000000a"
        let honest = "bbbbbbbb-0000-4000-8000-00000000000b"
        let later = "cccccccc-0000-4000-8000-00000000000c"

        init(_ name: String = #function, verify: Bool = true) throws {
            archive = try TestArchive(name)
            facts = archive.root + "/facts.csv"
            var lines: [String] = []
            func coins(_ id: String, token: String, bought: Int64) -> JSONValue {
                app.transaction(
                    id: id, product: "com.example.coins", type: "Consumable", purchase: bought, price: 4_990,
                    signedDate: bought,
                    extra: ["appAccountToken": .string(token)])
            }
            func buy(_ id: String, token: String, at time: Int64) throws -> JSONValue {
                let transaction = coins(id, token: token, bought: time)
                lines.append(
                    try app.notification(
                        type: "ONE_TIME_CHARGE", uuid: "buy-\(id)", signedDate: time, transaction: transaction))
                return transaction
            }
            func refund(_ transaction: JSONValue, id: String, at time: Int64) throws {
                lines.append(
                    try app.notification(
                        type: "REFUND", uuid: "refund-\(id)", signedDate: time,
                        transaction: transaction.setting("revocationDate", .int(time)).setting("signedDate", .int(time))
                    ))
            }
            func request(_ transaction: JSONValue, id: String, at time: Int64) throws {
                lines.append(
                    try app.notification(
                        type: "CONSUMPTION_REQUEST", uuid: "request-\(id)", signedDate: time, transaction: transaction,
                        data: ["consumptionRequestReason": "UNINTENDED_PURCHASE"]))
            }
            let now = self.now
            // The ring: three refunds in the last 60 days, then a fourth purchase it asks to refund.
            for index in 1...3 {
                let bought = try buy("r\(index)", token: ring, at: now - Int64(60 - index) * ConsumptionTests.day)
                try refund(bought, id: "r\(index)", at: now - Int64(50 - index) * ConsumptionTests.day)
            }
            try request(
                try buy("r4", token: ring, at: now - 2 * ConsumptionTests.day), id: "r4",
                at: now - 1 * ConsumptionTests.hour)
            // An honest customer's first request; one without facts; one without consent.
            for (id, hoursAgo) in [("h1", Int64(2)), ("h2", 3), ("h3", 4)] {
                try request(
                    try buy(id, token: honest, at: now - 3 * ConsumptionTests.day), id: id,
                    at: now - hoursAgo * ConsumptionTests.hour)
            }
            // Too late: 13 hours ago. Decided: Apple refunded after the request.
            try request(
                try buy("h4", token: honest, at: now - 3 * ConsumptionTests.day), id: "h4",
                at: now - 13 * ConsumptionTests.hour)
            let decided = try buy("h5", token: honest, at: now - 3 * ConsumptionTests.day)
            try request(decided, id: "h5", at: now - 5 * ConsumptionTests.hour)
            try refund(decided, id: "h5", at: now - 4 * ConsumptionTests.hour)
            // Refunds after the request do not count against it: the window ends at the request.
            try request(
                try buy("l1", token: later, at: now - 3 * ConsumptionTests.day), id: "l1",
                at: now - 6 * ConsumptionTests.hour)
            for index in 2...4 {
                try refund(
                    try buy("l\(index)", token: later, at: now - 3 * ConsumptionTests.day), id: "l\(index)",
                    at: now - 5 * ConsumptionTests.hour + Int64(index))
            }
            // An auto-renewable subscription: no consumptionPercentage.
            let subscription = app.transaction(
                id: "s1", original: "s1", purchase: now - 10 * ConsumptionTests.day,
                expires: now + 20 * ConsumptionTests.day, price: 9_990, signedDate: now - 10 * ConsumptionTests.day,
                extra: ["appAccountToken": .string(honest)])
            lines.append(
                try app.notification(
                    type: "SUBSCRIBED", uuid: "sub-s1", signedDate: now - 10 * ConsumptionTests.day,
                    transaction: subscription))
            try request(subscription, id: "s1", at: now - 7 * ConsumptionTests.hour)
            try archive.write("notifications.jsonl", lines: lines)
            try """
            transaction_id,customer_consented,delivery_status,consumption_percentage,sample_content_provided
            r4,true,DELIVERED,100000,false
            h1,true,DELIVERED,25000,false
            h3,false,DELIVERED,0,false
            h4,true,DELIVERED,,false
            h5,true,DELIVERED,50000,true
            l1,true,UNDELIVERED_SERVER_OUTAGE,,false
            s1,true,DELIVERED,40000,false

            """.write(toFile: facts, atomically: true, encoding: .utf8)
            _ = try Pipeline(configuration: try archive.configuration(app) { $0.noVerify = !verify }).run()
        }

        func responder(api: AppStoreServerAPI?) throws -> ConsumptionResponder {
            ConsumptionResponder(
                store: try StoreLocation(archive.database).open(),
                facts: try ReferenceFiles.readConsumptionFacts(at: facts), api: api)
        }
    }

    static let expectedBodies = [
        (
            "r4",
            #"{"consumptionPercentage":100000,"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"DECLINE","sampleContentProvided":false}"#
        ),
        (
            "h1",
            #"{"consumptionPercentage":25000,"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#
        ),
        (
            "l1",
            #"{"customerConsented":true,"deliveryStatus":"UNDELIVERED_SERVER_OUTAGE","sampleContentProvided":false}"#
        ),
        ("s1", #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#),
    ]

    @Test func aDryRunShowsTheBodiesAndSendsNothing() async throws {
        let world = try World()
        let summary = try await world.responder(api: nil).run(now: world.now)
        #expect(summary.bodies.map(\.transactionId).sorted() == Self.expectedBodies.map(\.0).sorted())
        for (transaction, body) in Self.expectedBodies {
            #expect(summary.bodies.first { $0.transactionId == transaction }?.body == body, "\(transaction)")
        }
        #expect(summary.count(.wouldSend) == 4 && summary.count(.missed) == 1 && summary.count(.decided) == 1)
        #expect(summary.count(.skippedNoFacts) == 1 && summary.count(.skippedNoConsent) == 1)
        #expect(summary.declines == 1)
        let recorded = try StoreLocation(world.archive.database).open().read {
            try $0.integer("SELECT count(*) FROM consumption_answers")
        }
        #expect(recorded == 0)
    }

    @Test func aRealRunAnswersOnceThroughFaultsAndARerunSendsNothing() async throws {
        let world = try World()
        let key = try TestAPIKey(folder: world.archive.root + "/keys")
        let server = FakeAppStoreServer(
            data: FakeAppStoreData(), key: try key.key(), keyId: key.keyId, issuerId: key.issuerId,
            bundleId: world.app.bundleId,
            faults: [1: .status(429), 2: .status(500)])
        let url = try server.start()
        defer { server.stop() }
        let (apiKey, _) = try AppStoreAPIKey.load(
            path: key.path, keyId: key.keyId, issuerId: key.issuerId, bundleId: world.app.bundleId)
        let api = AppStoreServerAPI(
            key: apiKey, baseURL: url, retry: RetryPolicy(baseDelay: .milliseconds(5), maximumDelay: .milliseconds(20)))
        let summary = try await world.responder(api: api).run(now: world.now)
        #expect(summary.count(.answered) == 4, "\(summary.line)")
        #expect(server.badTokens.isEmpty)
        #expect(server.consumptionAnswers.map(\.transactionId).sorted() == Self.expectedBodies.map(\.0).sorted())
        for (transaction, body) in Self.expectedBodies {
            #expect(server.consumptionAnswers.first { $0.transactionId == transaction }?.body == body)
        }
        let sent = server.requests.count
        let again = try await world.responder(api: api).run(now: world.now + 60_000)
        await api.shutdown()
        #expect(server.requests.count == sent, "a rerun sends nothing")
        #expect(again.count(.answered) == 0 && again.bodies.isEmpty)
        let stored = try StoreLocation(world.archive.database).open().read {
            try $0.rows("SELECT transaction_id, result, http_status FROM consumption_answers ORDER BY transaction_id")
                .map { "\($0[0].text ?? "") \($0[1].text ?? "") \($0[2].integer.map(String.init) ?? "-")" }
        }
        #expect(
            stored == [
                "h1 answered 202", "h2 skipped_no_facts -", "h3 skipped_no_consent -", "l1 answered 202",
                "r4 answered 202",
                "s1 answered 202",
            ])

        // The loop in the reports: every request of the month with what became of it.
        // As of now: reports count a request as missed from T, the analysis time, not the wall clock.
        _ = try Pipeline(configuration: try world.archive.configuration(world.app) { $0.asOf = world.now }).run()
        var answers: [String: String] = [:]
        var preferences: [String: String] = [:]
        var sections = ""
        var pages = ""
        for month in (try FileManager.default.contentsOfDirectory(atPath: world.archive.reports)).filter({
            $0.count == 7
        }) {
            let folder = world.archive.reports + "/" + month
            for row in CSVReader.records(
                try String(contentsOfFile: folder + "/consumption_requests.csv", encoding: .utf8))
            {
                answers[row["transaction_id"] ?? ""] = row["answer"]
                preferences[row["transaction_id"] ?? ""] = row["refund_preference"]
            }
            sections += try String(contentsOfFile: folder + "/report.md", encoding: .utf8)
            pages += try String(contentsOfFile: folder + "/report.html", encoding: .utf8)
        }
        #expect(
            answers == [
                "r4": "answered", "h1": "answered", "l1": "answered", "s1": "answered", "h2": "skipped_no_facts",
                "h3": "skipped_no_consent", "h4": "missed", "h5": "decided_before_answer",
            ])
        #expect(preferences.filter { $0.value == "DECLINE" }.map(\.key) == ["r4"])
        #expect(sections.contains("### Consumption requests"))
        #expect(sections.contains("answered in time"))
        // The same loop on the HTML page, with each request's answer and Apple's decision in a table.
        #expect(pages.contains("<h3 id=\"consumption-requests\">Consumption requests</h3>"))
        #expect(pages.contains("<strong>4 answered in time</strong> (1 asking Apple to decline"))
        #expect(pages.contains("<td class=\"nw\">DECLINE</td>"))
        #expect(pages.contains("<td>skipped: no consent</td>"))
    }
    /// `run` with a key and facts is one pipeline under one lock, each stage once: fetch (the lock is
    /// already held while Apple is slow to answer), ingest, analyze once, answer, report; the reports show the
    /// answers of this run. Before: the command line took the lock per stage and analysed twice.
    @Test func aRunWithFactsAnswersBetweenAnalyzeAndReportUnderOneLock() async throws {
        let world = try World()
        let key = try TestAPIKey(folder: world.archive.root + "/keys")
        let server = FakeAppStoreServer(
            data: FakeAppStoreData(), key: try key.key(), keyId: key.keyId, issuerId: key.issuerId,
            bundleId: world.app.bundleId,
            faults: [1: .delay(.seconds(3))])
        let url = try server.start()
        defer { server.stop() }
        let configuration = try world.archive.configuration(world.app) { configuration in
            configuration.fetch.issuerId = key.issuerId
            configuration.fetch.keyId = key.keyId
            configuration.fetch.privateKey = key.path
            configuration.fetch.apiURL = url
            configuration.fetch.archive = world.archive.root + "/fetched"
            configuration.fetch.facts = world.facts
        }
        let store = try StoreLocation(world.archive.database)
        let analysesBefore = try Self.analyses(store)
        let running = Task { try await Pipeline(configuration: configuration).runAll() }
        // While Apple is slow to answer the first history request, the store is already held by this run.
        try await Task.sleep(for: .seconds(1))
        #expect(throws: (any Error).self, "the run lock is held from the fetch on") {
            _ = try store.lockForRun(command: "probe")
        }
        let summary = try await running.value
        #expect(
            summary.fetch != nil && summary.consumption?.count(.answered) == 4,
            "\(summary.consumption?.line ?? "no consumption")")
        #expect(try Self.analyses(store) == analysesBefore + 1, "analyze ran once")
        var answers: [String: String] = [:]
        for month in (try FileManager.default.contentsOfDirectory(atPath: world.archive.reports)).filter({
            $0.count == 7
        }) {
            let file = world.archive.reports + "/" + month + "/consumption_requests.csv"
            for row in CSVReader.records(try String(contentsOfFile: file, encoding: .utf8)) {
                answers[row["transaction_id"] ?? ""] = row["answer"]
            }
        }
        #expect(
            ["r4", "h1", "l1", "s1"].allSatisfy { answers[$0] == "answered" },
            "the reports show this run's answers: \(answers)")
    }

    private static func analyses(_ location: StoreLocation) throws -> Int {
        Int(try location.open().read { try $0.integer("SELECT count(*) FROM runs WHERE command = 'analyze'") } ?? 0)
    }
}
