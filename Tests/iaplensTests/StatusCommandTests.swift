import Foundation
import IAPTestSupport
import Testing

/// `iaplens status` as a user reads it.
@Suite struct StatusCommandTests {
    /// Years of monthly files would bury the rest of the status: the text lists the latest twelve of Apple's payment
    /// summaries and says how many earlier ones `--json` lists.
    @Test func theTextListsTheLatestAppleFilesAndJSONListsEveryOne() throws {
        let archive = try TestArchive()
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        for (index, month) in (months.map { "\($0) 2025" } + ["January 2026", "February 2026"]).enumerated() {
            try archive.write(
                "apple/summary-\(100 + index).csv",
                bytes: Array(
                    """
                    "App Store Connect - Payments and Financial Reports (\(month))",,,,,,,,,,
                    "Region (Currency)","Units Sold","Earned","Pre-Tax Subtotal","Input Tax","Adjustments","Withholding Tax","Total Owed","Exchange Rate","Proceeds","Bank Account Currency"
                    "Americas (USD)","2","8.35","8.35","0.00","0.00","0.00","8.35","1.00000","8.35","USD"

                    """.utf8))
        }
        // And one Financial Report, Apple's fiscal March 2026.
        let header = [
            "Transaction Date", "Settlement Date", "SKU", "Product Type Identifier", "Country of Sale", "Quantity",
            "Partner Share", "Extended Partner Share", "Partner Share Currency", "Customer Price", "Customer Currency",
            "Sale or Return",
        ]
        let row = [
            "03/02/2026", "03/02/2026", "com.app.coins", "IA1", "US", "1", "0.69", "0.69", "USD", "0.99", "USD", "S",
        ]
        try archive.write(
            "apple/FINANCE_DETAIL_Z1.txt",
            bytes: Array(
                (["Vendor Name\tHoldout Games Ltd", "Start Date\t03/01/2026", "End Date\t03/28/2026"]
                    + [header, row].map { $0.joined(separator: "\t") }).joined(separator: "\n").utf8))
        let ingest = try CLITests.run([
            "ingest", "--input", archive.inputs, "--database", archive.database, "--bundle-id", "com.example.tests",
        ])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let text = try CLITests.run(["status", "--database", archive.database]).stdout
        #expect(text.contains("Apple financial reports: 1 loaded, covering 2026-03 … 2026-03"), "\(text)")
        #expect(text.contains("  2026-03-01 … 2026-03-28: 1 row(s), "), "\(text)")
        #expect(text.contains("Apple payment summaries: 14 loaded, fiscal months 2025-01 … 2026-02"), "\(text)")
        #expect(
            !text.contains("summary-100.csv") && !text.contains("summary-101.csv") && text.contains("summary-102.csv"))
        #expect(text.contains("summary-113.csv"))
        #expect(text.contains("  … and 2 earlier (`iaplens status --json` lists every file)"))
        let json = try CLITests.run(["status", "--database", archive.database, "--json"]).stdout
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect((object?["apple_payment_summaries"] as? [Any])?.count == 14)
        let reports = object?["apple_reports"] as? [[String: Any]]
        #expect(
            reports?.count == 1 && reports?.first?["rows"] as? Int == 1
                && reports?.first?["first_day"] as? String == "2026-03-01")
    }

    /// A scheduled run that failed is found in `status`, with the sentence it failed with (the run log keeps it), so
    /// whoever reads the status next morning knows why without the night's log.
    @Test func aFailedRunIsListedWithWhyItFailed() throws {
        let archive = try TestArchive()
        let app = AppFixture()
        try archive.write("n.jsonl", lines: [try app.firstPurchase()])
        let arguments = ["--database", archive.database, "--bundle-id", app.bundleId]
        let ingest = try CLITests.run(
            ["ingest", "--input", archive.inputs, "--root-certificate", try archive.trustedRoot()] + arguments)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let failed = try CLITests.run(["analyze", "--month", "2026-12"] + arguments)
        #expect(failed.status == 64, "\(failed.stderr)")
        let text = try CLITests.run(["status", "--database", archive.database]).stdout
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("  analyze: failed") }, "\(text)")
        #expect(line.contains(": --month 2026-12 is after the month of the figures' as-of time"), "\(line)")
        #expect(
            !(text.split(separator: "\n").first { $0.hasPrefix("  ingest:") } ?? "").contains("--month"),
            "a completed run says no reason")
        let json = try CLITests.run(["status", "--database", archive.database, "--json"]).stdout
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let runs = try #require(object?["last_runs"] as? [[String: Any]])
        let analyze = try #require(runs.first { $0["command"] as? String == "analyze" })
        #expect((analyze["message"] as? String)?.hasPrefix("--month 2026-12 is after") == true, "\(analyze)")
        #expect(runs.first { $0["command"] as? String == "ingest" }?["message"] == nil)
    }

    /// Monitoring runs `status` as its own account, which may read the store but not write its folder, where SQLite
    /// would make the `-wal` and `-shm` files it reads a store through: the status is read all the same, and nothing
    /// is written there. As root (who may write anywhere) the command runs as `nobody` through `setpriv`, on a store
    /// in a folder of `/tmp` (the tests' own temporary folder is closed to other users).
    @Test func aUserWhoMayOnlyReadTheStoreGetsTheStatus() throws {
        let archive = try TestArchive()
        let app = AppFixture()
        try archive.write("n.jsonl", lines: [try app.firstPurchase()])
        let asRoot = getuid() == 0
        let folder = asRoot ? "/tmp/iaplens-reader-\(UUID().uuidString.prefix(8))" : archive.root + "/store-folder"
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = folder + "/store.sqlite"
        let ingest = try CLITests.run(
            [
                "ingest", "--input", archive.inputs, "--database", database, "--bundle-id", app.bundleId,
                "--root-certificate",
                try archive.trustedRoot(),
            ])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let executable = try #require(CLI.executable)
        let asReader: (executable: String, prefix: [String]) =
            asRoot
            ? ("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", executable])
            : (executable, [])
        for format in [[], ["--json"]] {
            let status = try CLI.Running(
                asReader.prefix + ["status", "--database", database] + format, executable: asReader.executable
            ).wait()
            #expect(status.status == 0, "\(status.stderr)")
            #expect(
                status.stdout.contains(format.isEmpty ? "transactions: 1" : "\"bundle_id\":\"\(app.bundleId)\""),
                "\(status.stdout)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)
        // A folder this user may not open at all: said as such, not as "no store" (which would send them to make one).
        try FileManager.default.setAttributes([.posixPermissions: asRoot ? 0o700 : 0o000], ofItemAtPath: folder)
        let closed = try CLI.Running(
            asReader.prefix + ["status", "--database", database], executable: asReader.executable
        ).wait()
        #expect(
            closed.status == 1
                && closed.stderr.contains("permission denied: this user may not open a folder on its path"),
            "\(closed.stderr)")
    }
}
