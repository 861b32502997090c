import Foundation
import IAPTestSupport
import Testing

/// The SQL models against a second reading of the contract: `scripts/recompute-reports.py` writes the rules of
/// Documentation/Reports.md again in plain Python, one subscription at a time, and recomputes fourteen report files
/// (churn, expiration intents, billing retry, flagged accounts, subscriptions, MRR, countries, reconciliation,
/// refunds, consumable losses, Apple's reconciliation and payment, cohorts, months.csv) and which month folders are
/// written. Run on the committed sample and on an archive of another seed, shape, as-of time, proceeds rate and time
/// zone; and the recomputation is shown to notice one changed cell, so that its agreement means something.
@Suite struct IndependentRecomputationTests {
    static let script = CLI.repositoryRoot + "/scripts/recompute-reports.py"

    static func recompute(store: String, reports: String, options: [String] = []) throws -> CLI.Result {
        try CLI.Running([script, store, reports] + options, executable: "/usr/bin/python3").wait(timeout: 120)
    }

    private static func folder(_ name: String) throws -> String {
        let root = NSTemporaryDirectory() + "iaplens-\(name)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return root
    }

    /// Simulates an archive into `root/archive` with `simulate` (seed, sizes, months) and runs it whole into
    /// `root/store.sqlite` and `root/reports` with `run` (settings, reference files).
    private static func simulateAndRun(root: String, simulate: [String], run settings: [String], references: [String])
        throws
    {
        let archive = root + "/archive"
        let simulated = try CLI.run(["simulate", "--quiet", "--output", archive] + simulate)
        #expect(simulated.status == 0, "\(simulated.stderr.suffix(500))")
        let run = try CLI.run(
            ["run", "--quiet"] + settings
                + ["notifications", "history", "refunds", "orders", "finance"].flatMap {
                    ["--input", archive + "/" + $0]
                }
                + references.flatMap { ["--" + $0, archive + "/" + $0 + ".csv"] }
                + [
                    "--database", root + "/store.sqlite", "--reports", root + "/reports",
                    "--bundle-id", "com.example.iaplens.demo", "--app-apple-id", "1234567890",
                    "--root-certificate", archive + "/certs/root.pem",
                ])
        #expect(run.status == 0, "\(run.stderr.suffix(500))")
    }

    @Test func theSampleAgreesAndAChangedCellIsFound() throws {
        let root = try Self.folder("recompute")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try ReferencePathTests.sampleRun(
            reports: root + "/reports", database: root + "/store.sqlite", environment: [:])
        #expect(run.status == 0, "\(run.stderr.suffix(500))")

        let agreed = try Self.recompute(store: root + "/store.sqlite", reports: root + "/reports")
        #expect(agreed.status == 0, "\(agreed.stdout)\(agreed.stderr)")
        #expect(
            agreed.stdout.contains("12 months") && agreed.stdout.hasSuffix(": 0 difference(s)\n"), "\(agreed.stdout)")

        // One milliunit more in one MRR cell: found, named, and the exit status says so.
        let mrr = root + "/reports/2025-06/mrr.csv"
        var lines = try String(contentsOfFile: mrr, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let cells = lines[1].split(separator: ",")
        let changed = String(Int(cells.last!)! + 1)
        lines[1] = (cells.dropLast() + [Substring(changed)]).joined(separator: ",")[...]
        try lines.joined(separator: "\n").write(toFile: mrr, atomically: true, encoding: .utf8)
        let found = try Self.recompute(store: root + "/store.sqlite", reports: root + "/reports")
        #expect(found.status == 1)
        #expect(found.stdout.contains("2025-06/mrr.csv") && found.stdout.contains(changed), "\(found.stdout)")
        #expect(found.stdout.contains(": 1 difference(s)"), "\(found.stdout)")

        // A refund moved from "from_notifications" to "from_lookups_only": the refund count stays, the source is wrong.
        let refunds = root + "/reports/2025-06/refunds.csv"
        var refundLines = try String(contentsOfFile: refunds, encoding: .utf8).split(separator: "\n").map(String.init)
        var refundCells = refundLines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let notified = try #require(Int(refundCells[6]))
        let lookedUp = try #require(Int(refundCells[7]))
        try #require(notified > 0)
        refundCells[6] = String(notified - 1)
        refundCells[7] = String(lookedUp + 1)
        refundLines[1] = refundCells.joined(separator: ",")
        try (refundLines.joined(separator: "\n") + "\n").write(toFile: refunds, atomically: true, encoding: .utf8)
        let moved = try Self.recompute(store: root + "/store.sqlite", reports: root + "/reports")
        #expect(moved.status == 1 && moved.stdout.contains("2025-06/refunds.csv"), "\(moved.stdout)")
        #expect(moved.stdout.contains(": 2 difference(s)"), "\(moved.stdout)")

        // A month folder before the first observed month (the V1 receipts' history reaches back to 2023) is noticed.
        try FileManager.default.createDirectory(atPath: root + "/reports/2024-12", withIntermediateDirectories: true)
        let early = try Self.recompute(store: root + "/store.sqlite", reports: root + "/reports")
        #expect(early.status == 1 && early.stdout.contains("month folders: recomputed ['2025-01'"), "\(early.stdout)")
    }

    /// Another seed and shape than the sample's, V1 without a product catalog (unpriced, `XXX`), the small-business
    /// rate, T in the middle of a month, and Apple's days in Tokyo's calendar instead of Pacific Time (told to the
    /// recomputation too: told nothing, it finds the days that moved).
    @Test func anotherArchiveAgreesUnderOtherSettings() throws {
        let root = try Self.folder("recompute-other")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.simulateAndRun(
            root: root,
            simulate: [
                "--seed", "7", "--subscribers", "300", "--consumable-buyers", "100", "--refund-rings", "3", "--months",
                "16",
                "--start-month", "2023-03",
            ],
            run: ["--small-business", "--as-of", "2024-04-15T10:00:00Z", "--apple-time-zone", "Asia/Tokyo"],
            references: ["accounts"])
        let agreed = try Self.recompute(
            store: root + "/store.sqlite", reports: root + "/reports", options: ["--apple-time-zone", "Asia/Tokyo"])
        #expect(agreed.status == 0, "\(agreed.stdout)\(agreed.stderr)")
        #expect(agreed.stdout.hasSuffix(": 0 difference(s)\n"), "\(agreed.stdout)")
        let pacific = try Self.recompute(store: root + "/store.sqlite", reports: root + "/reports")
        #expect(pacific.status == 1 && pacific.stdout.contains("apple_reconciliation.csv"), "\(pacific.stdout)")
    }

    /// A larger archive, 30 months of it V1 for ten: its V1 bodies without `receivedAt` tie in time (a
    /// `DID_FAIL_TO_RENEW` body and the renewal it came after), where the newest renewal state decides a churn's reason.
    /// With the tie left to the document hash, this archive differed in six cells.
    @Test func aLargerArchiveWithTiesInTimeAgrees() throws {
        let root = try Self.folder("recompute-ties")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.simulateAndRun(
            root: root,
            simulate: [
                "--seed", "1234", "--subscribers", "1500", "--consumable-buyers", "400", "--refund-rings", "8",
                "--months", "30", "--start-month", "2023-05",
            ],
            run: [], references: ["products", "accounts"])
        let agreed = try Self.recompute(store: root + "/store.sqlite", reports: root + "/reports")
        #expect(agreed.status == 0, "\(agreed.stdout)\(agreed.stderr)")
        #expect(
            agreed.stdout.contains("30 months") && agreed.stdout.hasSuffix(": 0 difference(s)\n"), "\(agreed.stdout)")
    }
}
