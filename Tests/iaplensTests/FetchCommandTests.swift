import Foundation
import IAPTestSupport
import Testing

/// `iaplens fetch` and `iaplens run` with an API key in the config file, as a scheduled job runs them (issue 15).
@Suite struct FetchCommandTests {
    @Test func runWithAKeyInItsConfigFetchesThenReports() throws {
        let archive = try TestArchive()
        let world = try FetchWorld()
        let key = try TestAPIKey(folder: archive.root + "/keys")
        let server = FakeAppStoreServer(
            data: world.data, key: try key.key(), keyId: key.keyId, issuerId: key.issuerId, bundleId: world.app.bundleId)
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
        #expect(again.stdout.contains("notification history 1 page(s)") || again.stdout.contains("notification history 0 page(s)"))
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

    @Test func aRefusedKeyExitsWith77AndNamesIt() throws {
        let archive = try TestArchive()
        let world = try FetchWorld()
        let key = try TestAPIKey(folder: archive.root + "/keys")
        let other = try TestAPIKey(folder: archive.root + "/other", keyId: key.keyId, issuerId: key.issuerId)
        let server = FakeAppStoreServer(
            data: world.data, key: try other.key(), keyId: key.keyId, issuerId: key.issuerId, bundleId: world.app.bundleId)
        let url = try server.start()
        defer { server.stop() }
        let output = try CLITests.run([
            "fetch", "--archive", archive.inputs, "--database", archive.database, "--bundle-id", world.app.bundleId,
            "--issuer-id", key.issuerId, "--key-id", key.keyId, "--private-key", key.path, "--api-url", url,
        ])
        #expect(output.status == 77)
        #expect(output.stderr.contains(key.keyId))
    }
}
