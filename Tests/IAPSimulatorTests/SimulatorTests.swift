import Foundation
import IAPSimulator
import Testing

@Suite struct SimulatorTests {
    static func smallOptions(seed: UInt64 = 7, shards: Int = 2) -> SimulationOptions {
        var options = SimulationOptions()
        options.seed = seed
        options.subscribers = 30
        options.consumableBuyers = 20
        options.refundRings = 2
        options.months = 6
        options.shards = shards
        return options
    }

    static func temporaryDirectory(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "iaplens-sim-\(name)-\(UUID().uuidString)"
        return path
    }

    static func run(_ options: SimulationOptions, _ name: String) throws -> (String, SimulationManifest) {
        let directory = temporaryDirectory(name)
        let manifest = try Simulator(options: options).run(into: directory)
        return (directory, manifest)
    }

    @Test func smallRunWritesEveryKindOfFile() throws {
        let (directory, manifest) = try Self.run(Self.smallOptions(), "kinds")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = try ArchiveReader(root: directory).files()
        for required in [
            "certs/root.pem", "certs/root.der", "products.csv", "accounts.csv", "expectations.json",
            "orders/order-lookups.jsonl",
        ] {
            #expect(files.contains(required), "missing \(required)")
        }
        #expect(files.contains { $0.hasPrefix("notifications/v1/") && $0.hasSuffix(".jsonl") })
        #expect(files.contains { $0.hasPrefix("notifications/v2/") && $0.hasSuffix(".jsonl.gz") })
        #expect(files.contains { $0.hasPrefix("history/notification-history-") })
        #expect(files.contains { $0.hasPrefix("refunds/refund-history-") })
        #expect(manifest.months == ["2022-01", "2022-02", "2022-03", "2022-04", "2022-05", "2022-06"])
        #expect(manifest.v1Months == ["2022-01", "2022-02"])
        #expect(manifest.refunds.total > 0 && manifest.refunds.lookupsOnly > 0)
        #expect(!manifest.flaggedAccounts.isEmpty)
        #expect(manifest.forged["alteredPayload", default: 0] > 0 && manifest.forged["untrustedChain", default: 0] > 0)
        #expect(manifest.sandboxDocuments > 0 && manifest.testNotifications > 0 && manifest.otherAppDocuments > 0)
        let written = try Data(contentsOf: URL(fileURLWithPath: directory + "/expectations.json"))
        #expect(try JSONDecoder().decode(SimulationManifest.self, from: written) == manifest)
    }

    @Test func sameSeedGivesByteIdenticalArchivesWhateverTheShards() throws {
        let (first, _) = try Self.run(Self.smallOptions(shards: 1), "same-a")
        let (second, _) = try Self.run(Self.smallOptions(shards: 3), "same-b")
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        let a = ArchiveReader(root: first)
        let b = ArchiveReader(root: second)
        let files = try a.files()
        #expect(files == (try b.files()))
        for file in files {
            #expect(try a.bytes(file) == (try b.bytes(file)), "\(file) differs")
        }
    }

    @Test func differentSeedGivesDifferentArchive() throws {
        let (first, _) = try Self.run(Self.smallOptions(seed: 1), "seed-a")
        let (second, _) = try Self.run(Self.smallOptions(seed: 2), "seed-b")
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        let a = ArchiveReader(root: first)
        let b = ArchiveReader(root: second)
        #expect(try a.bytes("certs/root.der") != (try b.bytes("certs/root.der")))
        #expect(try a.bytes("accounts.csv") != (try b.bytes("accounts.csv")))
    }
}
