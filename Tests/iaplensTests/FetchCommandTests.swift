import Foundation
import IAPTestSupport
import Testing

/// `iaplens fetch` and `iaplens run` with an API key in the config file, as a scheduled job runs them.
@Suite struct FetchCommandTests {
    @Test func runWithAKeyInItsConfigFetchesThenReports() throws {
        let archive = try TestArchive()
        let world = try FetchWorld()
        let key = try TestAPIKey(folder: archive.root + "/keys")
        let server = FakeAppStoreServer(
            data: world.data, key: try key.key(), keyId: key.keyId, issuerId: key.issuerId, bundleId: world.app.bundleId
        )
        let url = try server.start()
        defer { server.stop() }
        let config = archive.root + "/iaplens.json"
        let settings: [String: Any] = [
            "input": [archive.inputs], "database": archive.database, "reports": archive.reports,
            "bundle-id": world.app.bundleId, "root-certificate": [try archive.trustedRoot()],
            "issuer-id": key.issuerId, "key-id": key.keyId, "private-key": key.path, "api-url": url,
        ]
        try JSONSerialization.data(withJSONObject: settings).write(to: URL(fileURLWithPath: config))
        let output = try CLITests.run(["run", "--config", config])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("fetch: "), "\(output.stdout)")
        #expect(output.stdout.contains("notification history 2 page(s)"))
        #expect(FileManager.default.fileExists(atPath: archive.inputs + "/fetched/notification-history"))
        #expect(FetchWorld.figures(archive.reports).keys.contains { $0.hasSuffix("refunds.csv") })
        #expect(!output.stdout.contains(key.pem.split(separator: "\n")[1]), "the key never reaches the output")

        // The same job again: nothing new, so no new page and no change.
        let again = try CLITests.run(["run", "--config", config])
        #expect(again.status == 0)
        #expect(
            again.stdout.contains("notification history 1 page(s)")
                || again.stdout.contains("notification history 0 page(s)"))
    }

    @Test func aMissingKeyOptionIsAUsageError() throws {
        let archive = try TestArchive()
        let output = try CLITests.run([
            "fetch", "--archive", archive.inputs, "--database", archive.database, "--bundle-id", "com.example.tests",
            "--issuer-id", "i", "--private-key", archive.root + "/none.p8",
        ])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--key-id"))
    }

    /// A window bound without a zone names no instant; the refusal says what is missing, in the words `--as-of` uses.
    /// Before, it said "must be ISO 8601 UTC", though offsets are read too.
    @Test func aWindowBoundWithoutAZoneIsAUsageErrorSayingSo() throws {
        let archive = try TestArchive()
        let output = try CLITests.run([
            "fetch", "--archive", archive.inputs, "--database", archive.database, "--bundle-id", "com.example.tests",
            "--issuer-id", "i", "--key-id", "K", "--private-key", archive.root + "/none.p8", "--since",
            "2026-03-01T00:00:00",
        ])
        #expect(output.status == 64)
        #expect(
            output.stderr.contains(
                "--since must be an ISO 8601 time with Z or an offset, e.g. 2026-10-01T00:00:00Z (got 2026-03-01T00:00:00, which has no time zone)."
            ),
            "\(output.stderr)")
    }

    @Test func aRefusedKeyExitsWith77AndNamesIt() throws {
        let archive = try TestArchive()
        let world = try FetchWorld()
        let key = try TestAPIKey(folder: archive.root + "/keys")
        let other = try TestAPIKey(folder: archive.root + "/other", keyId: key.keyId, issuerId: key.issuerId)
        let server = FakeAppStoreServer(
            data: world.data, key: try other.key(), keyId: key.keyId, issuerId: key.issuerId,
            bundleId: world.app.bundleId)
        let url = try server.start()
        defer { server.stop() }
        let output = try CLITests.run([
            "fetch", "--archive", archive.inputs, "--database", archive.database, "--bundle-id", world.app.bundleId,
            "--issuer-id", key.issuerId, "--key-id", key.keyId, "--private-key", key.path, "--api-url", url,
        ])
        #expect(output.status == 77)
        #expect(output.stderr.contains(key.keyId))
    }

    /// kill -9 while Apple is slow to answer the second history page, then the same command again: the figures are
    /// those of the same data as files, and no page is saved twice.
    @Test func aFetchKilledMidwayAndRunAgainLosesNothing() throws {
        let archive = try TestArchive()
        let world = try FetchWorld()
        let key = try TestAPIKey(folder: archive.root + "/keys")
        let server = FakeAppStoreServer(
            data: world.data, key: try key.key(), keyId: key.keyId, issuerId: key.issuerId,
            bundleId: world.app.bundleId,
            faults: [2: .delay(.seconds(20))])
        let url = try server.start()
        defer { server.stop() }
        let fetched = archive.root + "/fetched-archive"
        let database = archive.root + "/fetched.sqlite"
        let orders = archive.root + "/order-ids.txt"
        try (world.orderIds.joined(separator: "\n") + "\n").write(toFile: orders, atomically: true, encoding: .utf8)
        let arguments = [
            "fetch", "--archive", fetched, "--database", database, "--bundle-id", world.app.bundleId,
            "--issuer-id", key.issuerId, "--key-id", key.keyId, "--private-key", key.path, "--api-url", url,
            "--order-ids", orders,
        ]
        let running = try CLI.Running(arguments)
        let firstPage = fetched + "/fetched/notification-history"
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, server.requests.count < 2 || !FileManager.default.fileExists(atPath: firstPage) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(running.pid, SIGKILL)
        _ = try running.wait()
        #expect(running.process.terminationReason == .uncaughtSignal, "the fetch was killed, not finished")

        server.setFaults([:])
        let resumed = try CLITests.run(arguments)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let pages =
            FileManager.default.enumerator(atPath: firstPage)?.allObjects.compactMap { $0 as? String }.filter {
                $0.hasSuffix(".json")
            } ?? []
        #expect(pages.count == 2, "\(pages)")

        let root = try archive.trustedRoot()
        let common = ["--database", database, "--bundle-id", world.app.bundleId, "--root-certificate", root]
        let run = try CLITests.run(
            ["run", "--input", fetched, "--reports", archive.root + "/fetched-reports"] + common)
        #expect(run.status == 0, "\(run.stderr)")
        for (name, lines) in world.fileLines { try archive.write(name, lines: lines) }
        let files = try CLITests.run([
            "run", "--input", archive.inputs, "--reports", archive.root + "/files-reports", "--database",
            archive.root + "/files.sqlite",
            "--bundle-id", world.app.bundleId, "--root-certificate", root,
        ])
        #expect(files.status == 0)
        let expected = FetchWorld.figures(archive.root + "/files-reports")
        let figures = FetchWorld.figures(archive.root + "/fetched-reports")
        #expect(expected.count >= 14)
        let differing = Set(expected.keys).union(figures.keys).filter { expected[$0] != figures[$0] }.sorted()
        #expect(differing.isEmpty, "differ: \(differing)")
    }

    /// An archive with one consumable purchase and Apple's consumption request for it, ingested, and the facts file
    /// that answers it: what `consumption` reads.
    private func consumptionStore() throws -> (archive: TestArchive, app: AppFixture, facts: String, common: [String]) {
        let archive = try TestArchive()
        let app = AppFixture()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let coins = app.transaction(
            id: "c1", product: "com.example.coins", type: "Consumable", purchase: now - 86_400_000, price: 990,
            signedDate: now - 86_400_000)
        try archive.write(
            "n.jsonl",
            lines: [
                try app.notification(
                    type: "ONE_TIME_CHARGE", uuid: "buy", signedDate: now - 86_400_000, transaction: coins),
                try app.notification(
                    type: "CONSUMPTION_REQUEST", uuid: "ask", signedDate: now - 3_600_000, transaction: coins),
            ])
        let facts = archive.root + "/facts.csv"
        try
            "transaction_id,customer_consented,delivery_status,consumption_percentage,sample_content_provided\nc1,true,DELIVERED,100000,false\n"
            .write(toFile: facts, atomically: true, encoding: .utf8)
        let common = ["--database", archive.database, "--bundle-id", app.bundleId]
        let ingest = try CLITests.run(
            ["ingest", "--input", archive.inputs, "--root-certificate", try archive.trustedRoot()] + common)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        return (archive, app, facts, common)
    }

    /// `consumption --dry-run`: the bodies alone on standard output, one JSON line each; nothing sent or kept.
    @Test func aConsumptionDryRunPrintsOneBodyPerLine() throws {
        let (archive, _, facts, common) = try consumptionStore()
        let dry = try CLITests.run(["consumption", "--dry-run", "--facts", facts] + common)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(
            dry.stdout
                == #"{"consumptionPercentage":100000,"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#
                + "\n")
        #expect(dry.stderr.contains("1 would_send"))
        // The store names its app: without --bundle-id the same (before: "--bundle-id is missing").
        let storeApp = try CLITests.run(["consumption", "--dry-run", "--facts", facts, "--database", archive.database])
        #expect(storeApp.status == 0 && storeApp.stdout == dry.stdout, "\(storeApp.stderr)")
        let missing = try CLITests.run(["consumption", "--facts", facts] + common)
        #expect(missing.status == 64, "a real run needs the key: \(missing.stderr)")
    }

    /// Apple refuses the answer (HTTP 400): exit 76 with Apple's status and code in a sentence; the refusal is
    /// recorded, so the next run sends nothing and exits 0.
    @Test func aRefusedConsumptionAnswerExitsWith76AndIsNotSentAgain() throws {
        let (archive, app, facts, common) = try consumptionStore()
        let key = try TestAPIKey(folder: archive.root + "/keys")
        let server = FakeAppStoreServer(
            data: FakeAppStoreData(), key: try key.key(), keyId: key.keyId, issuerId: key.issuerId,
            bundleId: app.bundleId, faults: [1: .status(400)])
        let url = try server.start()
        defer { server.stop() }
        let send =
            ["consumption", "--facts", facts, "--issuer-id", key.issuerId, "--key-id", key.keyId]
            + ["--private-key", key.path, "--api-url", url] + common
        let refused = try CLITests.run(send)
        #expect(refused.status == 76, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("Apple refused the answer for transaction c1 (HTTP 400 errorCode 400"),
            "\(refused.stderr)")
        let again = try CLITests.run(send)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(server.consumptionAnswers.isEmpty, "a refused answer is not sent again")
        // `status` shows the refusal, in words and as JSON.
        let status = try CLITests.run(["status", "--database", archive.database])
        #expect(status.stdout.contains("refused by Apple: transaction c1, HTTP 400, errorCode 400"), "\(status.stdout)")
        let json = try CLITests.run(["status", "--json", "--database", archive.database])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        let refusals = try #require(object["consumption_refusals"] as? [[String: Any]])
        #expect(refusals.first?["transaction_id"] as? String == "c1")
        #expect(refusals.first?["http_status"] as? Int == 400 && refusals.first?["error_code"] as? Int == 400)
    }
}
