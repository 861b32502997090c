import Foundation
import IAPStore
import IAPTestSupport
import Testing

/// Runs the built `iaplens` binary as a user would: help, exit codes, a full run, the README.
@Suite struct CLITests {
    static let repository = URL(fileURLWithPath: CLI.repositoryRoot)
    static var binary: String { CLI.executable ?? CLI.repositoryRoot + "/.build/debug/iaplens" }

    /// `iaplens <arguments>` through the one runner of the test support (``CLI``).
    static func run(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws
        -> CLI.Result
    {
        try CLI.run(arguments, environment: environment.isEmpty ? nil : environment, workingDirectory: directory)
    }

    @Test(arguments: [
        "run", "fetch", "consumption", "ingest", "analyze", "report", "status", "simulate", "demo", "reasons",
    ])
    func everySubcommandHasHelp(_ command: String) throws {
        let output = try Self.run([command, "--help"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("USAGE: iaplens \(command)"))
        // An example command survives the help's wrapping at 80 columns: each of its lines is indented and every line
        // but its last ends in a backslash, so it can be pasted into a shell as it is.
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where line.hasSuffix("\\") {
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            #expect(
                line.hasPrefix(" ") && next.hasPrefix(" "), "\(command) --help breaks an example:\n\(line)\n\(next)")
        }
    }

    @Test func rootHelpTeachesTheSchedule() throws {
        let output = try Self.run(["--help"])
        #expect(output.stdout.contains("iaplens run --input"))
        #expect(output.stdout.contains("75"))
    }

    @Test func missingBundleIdIsAUsageErrorNamingTheOption() throws {
        let archive = try TestArchive()
        let output = try Self.run(["run", "--input", archive.inputs, "--database", archive.database])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--bundle-id"))
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    /// `--as-of` and `--month` cover what has happened.
    @Test(arguments: [
        ["--as-of", "9999-12-31T00:00:00Z"], ["--as-of", "2001-01-01T00:00:00Z"], ["--month", "2100-01"],
        ["--month", "1999-12"],
    ])
    func reportTimesOutsideTheAppStoresYearsAreUsageErrors(_ option: [String]) throws {
        let archive = try TestArchive()
        let output = try Self.run(
            [
                "report", "--database", archive.database, "--bundle-id", "com.example.tests", "--reports",
                archive.reports,
            ] + option)
        #expect(output.status == 64)
        #expect(output.stderr.contains("\(option[0]) \(option[1].prefix(4))"))
        #expect(output.stderr.contains("outside"))
        #expect(!FileManager.default.fileExists(atPath: archive.reports))
    }

    @Test func simulatorOptionOutOfRangeIsAOneLineError() throws {
        let output = try Self.run(["simulate", "--output", NSTemporaryDirectory() + "x", "--subscribers=-3"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--subscribers must be between 0 and 5000000 (got -3)"))
    }

    /// Log lines carry the UTC time and a level; `--quiet` says nothing on success (for cron),
    /// `--verbose` also the settings; both from the environment too.
    @Test func logLinesAreTimestampedAndVerbosityIsChosen() throws {
        let archive = try TestArchive()
        let app = AppFixture()
        try archive.write("n.jsonl", lines: [try app.firstPurchase()])
        let arguments = [
            "run", "--input", archive.inputs, "--database", archive.database, "--reports", archive.reports,
            "--bundle-id", app.bundleId, "--app-apple-id", String(app.appAppleId), "--root-certificate",
            try archive.trustedRoot(),
        ]
        let quiet = try Self.run(arguments + ["--quiet"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "quiet printed: \(quiet.stdout)\(quiet.stderr)")
        let verbose = try Self.run(arguments, environment: ["IAPLENS_VERBOSE": "1"])
        #expect(verbose.status == 0)
        let line = try #require(verbose.stderr.split(separator: "\n").first { $0.contains("settings:") })
        #expect(
            line.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z debug: settings: store .*/) != nil, "\(line)")
        #expect(verbose.stdout.contains("report: 0 file(s) written"))
        let both = try Self.run(arguments + ["--quiet", "--verbose"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--quiet and --verbose cannot be used together"))
    }

    @Test func aFullRunFromAnotherDirectoryWritesReportsAndExitsZero() throws {
        let archive = try TestArchive()
        let app = AppFixture()
        try archive.write("n.jsonl", lines: [try app.firstPurchase(), "not json"])
        let output = try Self.run(
            [
                "run", "--input", archive.inputs, "--database", archive.database, "--reports", archive.reports,
                "--bundle-id", app.bundleId, "--app-apple-id", String(app.appAppleId), "--root-certificate",
                try archive.trustedRoot(),
                // One line of two is bad: half, which this run accepts (the default, 20 %, would exit 65).
                "--max-quarantine-percent", "50",
            ], in: NSTemporaryDirectory())
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("1 quarantined"))
        #expect(FileManager.default.fileExists(atPath: archive.reports + "/2025-10/churn.csv"))
        // `report` takes the same threshold: within it the pages and the command say nothing of the share; with the
        // default they warn.
        let report = [
            "report", "--database", archive.database, "--reports", archive.reports, "--bundle-id", app.bundleId,
        ]
        let within = try Self.run(report + ["--max-quarantine-percent", "50"])
        #expect(within.status == 0 && !within.stderr.contains("quarantined"), "\(within.stderr)")
        #expect(!(try archive.report("index.md")).contains("were quarantined"))
        let beyond = try Self.run(report)
        #expect(beyond.status == 0 && beyond.stderr.contains("quarantined"), "\(beyond.stderr)")
        #expect(try archive.report("index.md").contains("were quarantined"))
        let status = try Self.run(["status", "--database", archive.database, "--quarantine", "5"])
        #expect(status.stdout.contains("bad_json"))
        #expect(status.stdout.contains("n.jsonl:2"))
        // The stored start of the document, filtered by reason; and the same as JSON for monitoring.
        let filtered = try Self.run([
            "status", "--database", archive.database, "--quarantine", "5", "--reason", "bad_json",
        ])
        #expect(filtered.stdout.contains("starts: not json"), "\(filtered.stdout)")
        let none = try Self.run([
            "status", "--database", archive.database, "--quarantine", "5", "--reason", "wrong_app",
        ])
        #expect(!none.stdout.contains("n.jsonl:2"))
        let badReason = try Self.run(["status", "--database", archive.database, "--reason", "nonsense"])
        #expect(badReason.status == 64)
        // A misspelt code gets the one it most likely meant, and the status command's own usage line.
        let misspelt = try Self.run(["status", "--database", archive.database, "--reason", "bad_jsn"])
        #expect(
            misspelt.status == 64 && misspelt.stderr.contains("(got bad_jsn, did you mean bad_json?)"),
            "\(misspelt.stderr)")
        #expect(misspelt.stderr.contains("Usage: iaplens status"), "\(misspelt.stderr)")
        let json = try Self.run(["status", "--database", archive.database, "--json", "--quarantine", "1"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["quarantine_by_reason"] as? [String: Int])?["bad_json"] == 1)
        #expect((object?["documents_by_outcome"] as? [String: Int])?["accepted"] == 1)
        #expect(((object?["quarantined_documents"] as? [[String: Any]])?.first?["excerpt"] as? String) == "not json")
        #expect(json.stdout.split(separator: "\n").count == 1, "one line")
    }

    @Test func theReadmeDocumentsEveryQuarantineReason() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        for reason in QuarantineReason.allCases {
            #expect(
                readme.contains("| `\(reason.rawValue)` | \(reason.meaning) | \(reason.remedy) |"),
                "README lacks \(reason.rawValue)")
        }
    }

    @Test func versionNamesTheReleaseAndTheStoreMigrations() throws {
        let output = try Self.run(["--version"])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("iaplens 0."))
        // The newest migration of each engine, counted from the migrations themselves. Before: a fixed text still
        // said v8 and v5 when the store had reached v15 and v11.
        func count(_ text: String, in folder: String) throws -> Int {
            let path = CLI.repositoryRoot + "/Sources/IAPStore/" + folder
            return try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".swift") }.reduce(0)
            {
                $0 + (try String(contentsOfFile: path + "/" + $1, encoding: .utf8)).components(separatedBy: text).count
                    - 1
            }
        }
        let sqlite = try count("migrator.registerMigration(\"", in: "SQLite/Schema")
        let postgres = try count("= PostgresMigration(name: \"", in: "Postgres/Migrations")
        #expect(sqlite >= 15 && postgres >= 11)
        #expect(
            output.stdout.contains("SQLite migration v\(sqlite), PostgreSQL migration v\(postgres))"),
            "\(output.stdout)")
    }

    /// A command one or two letters off is named with the one it most likely meant; other words get ArgumentParser's
    /// own message. Both are usage errors (64).
    @Test func aMistypedCommandIsNamedWithTheOneItMeant() throws {
        let typo = try Self.run(["reprot"])
        #expect(
            typo.status == 64 && typo.stderr.contains("Unknown command 'reprot'. Did you mean 'report'?"),
            "\(typo.stderr)")
        let other = try Self.run(["frobnicate"])
        #expect(
            other.status == 64 && other.stderr.contains("Unexpected argument 'frobnicate'")
                && !other.stderr.contains("Did you mean"))
        #expect(try Self.run(["reasons"]).status == 0)
    }

    /// A mistyped --database must not publish empty reports over real ones.
    @Test(arguments: ["analyze", "report"])
    func analyzeAndReportRefuseAStoreThatDoesNotExist(_ command: String) throws {
        let archive = try TestArchive()
        let typo = archive.root + "/typo.sqlite"
        var arguments = [command, "--database", typo, "--bundle-id", "com.example.tests"]
        if command == "report" { arguments += ["--reports", archive.reports] }
        let output = try Self.run(arguments)
        #expect(output.status == 64)
        #expect(output.stderr.contains("No store at"))
        #expect(!FileManager.default.fileExists(atPath: typo))
        #expect(!FileManager.default.fileExists(atPath: archive.reports + "/index.md"))
    }

    /// An empty (or unmounted) archive folder is not a good run: exit 66 with a sentence.
    @Test func aRunThatFindsNoInputFilesSaysSoAndExits66() throws {
        let archive = try TestArchive()
        let output = try Self.run([
            "ingest", "--input", archive.inputs, "--database", archive.database, "--bundle-id", "com.example.tests",
        ])
        #expect(output.status == 66)
        #expect(output.stderr.contains("no input files were found"))
    }

    /// `demo`, the first thing a new user runs: it says what it simulated, then each stage as `run` says it (the
    /// analysis and the report were left out), and where the reports are. Its folder is `--directory`, or `--output`
    /// as `simulate` spells it.
    @Test func theDemoSaysEachStageAndWhereTheReportsAre() throws {
        let archive = try TestArchive()
        let output = try Self.run([
            "demo", "--output", archive.root + "/demo", "--subscribers", "20", "--consumable-buyers", "5", "--months",
            "2",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let starts = ["demo: simulated 2 month(s)", "ingest: ", "analyze: as of ", "report: ", "Reports are in "]
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let order = starts.map { start in lines.firstIndex { $0.hasPrefix(start) } }
        #expect(order.allSatisfy { $0 != nil } && order == order.sorted { ($0 ?? 0) < ($1 ?? 0) }, "\(output.stdout)")
        #expect(FileManager.default.fileExists(atPath: archive.root + "/demo/reports/index.html"))
    }

    /// A `--month` after the month of T is refused with exit 64, and nothing is written.
    @Test func aMonthAfterTheDataIsAUsageError() throws {
        let archive = try TestArchive()
        let app = AppFixture()
        try archive.write("n.jsonl", lines: try Self.coinPurchases(2, of: app))
        let store = [
            "--database", archive.database, "--bundle-id", app.bundleId, "--root-certificate",
            try archive.trustedRoot(),
        ]
        #expect(try Self.run(["ingest", "--input", archive.inputs] + store).status == 0)
        let output = try Self.run([
            "report", "--database", archive.database, "--reports", archive.reports, "--month", "2025-02",
        ])
        #expect(output.status == 64)
        #expect(
            output.stderr.contains(
                "--month 2025-02 is after the month of the figures' as-of time, 2025-01-02T00:00:00Z"),
            "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: archive.reports + "/2025-02"))
    }

    /// `count` purchases of coins, a day apart from 2025-01-01 (the first `first` days on), each a signed
    /// notification line.
    static func coinPurchases(_ count: Int, of app: AppFixture, first: Int = 0) throws -> [String] {
        try (first..<first + count).map { index in
            let time: Int64 = 1_735_689_600_000 + Int64(index) * 86_400_000
            return try app.notification(
                type: "ONE_TIME_CHARGE", uuid: "n\(index)", signedDate: time,
                transaction: app.transaction(
                    id: "t\(index)", product: "com.example.coins", type: "Consumable", purchase: time, price: 990,
                    signedDate: time))
        }
    }

    /// An option a command does not use is neither offered by its help nor accepted. Before: `fetch --help` and
    /// `report --help` listed the ingest-only options.
    @Test(arguments: ["analyze", "report", "fetch", "consumption"])
    func ingestOnlyOptionsAreNeitherOfferedNorAcceptedWhereNothingIsRead(_ command: String) throws {
        let archive = try TestArchive()
        let output = try Self.run([
            command, "--database", archive.database, "--bundle-id", "com.example.tests", "--root-certificate",
            "/nonexistent",
        ])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--root-certificate"), "\(output.stderr)")
        let help = try Self.run([command, "--help"])
        for option in ["--root-certificate", "--no-verify", "--v1-shared-secret", "--input "] {
            #expect(!help.stdout.contains(option), "\(command) --help offers \(option)")
        }
    }

    /// The command line tells the truth about itself. Before: the top-level help said "SQLite store" and "CSV and
    /// Markdown"; `--input` omitted Apple's report files; `report` on a mistyped store first asked for --bundle-id and
    /// left `typo.sqlite.lock` behind; `consumption` without --bundle-id said "fetch needs --bundle-id".
    @Test func theHelpAndTheErrorsSayWhatIsTrue() throws {
        let top = try Self.run(["--help"])
        let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let help = words(top.stdout)
        #expect(help.contains("PostgreSQL") && help.contains("HTML") && help.contains("payment summaries"))
        #expect(help.contains("76 Apple refused an answer") && help.contains("77 a permission is missing"))
        let ingest = words(try Self.run(["ingest", "--help"]).stdout)
        #expect(ingest.contains("FINANCE_DETAIL") && ingest.contains("financial_report.csv"))
        let report = try Self.run(["report", "--help"])
        #expect(!report.stdout.contains("created if missing"))
        let archive = try TestArchive()
        let typo = archive.root + "/typo.sqlite"
        let missing = try Self.run(["report", "--database", typo, "--reports", archive.reports])
        #expect(missing.status == 64)
        #expect(
            missing.stderr.contains("No store at \(typo)") && !missing.stderr.contains("bundle-id"), "\(missing.stderr)"
        )
        #expect(!FileManager.default.fileExists(atPath: typo + ".lock"), "no lock file left beside a mistyped store")
        #expect(!FileManager.default.fileExists(atPath: typo))
        let app = AppFixture()
        try archive.write(
            "n.jsonl", lines: [try app.notification(type: "TEST", uuid: "n1", signedDate: 1_760_000_000_000)])
        let ingested = try Self.run([
            "ingest", "--input", archive.inputs, "--database", archive.database, "--bundle-id", app.bundleId,
            "--root-certificate", try archive.trustedRoot(),
        ])
        #expect(ingested.status == 0, "\(ingested.stderr)")
        // The store names its app, so what is missing is the API key, every option of it named at once.
        let consumption = try Self.run([
            "consumption", "--database", archive.database, "--facts", archive.root + "/f.csv",
        ])
        #expect(consumption.status == 64)
        #expect(
            !consumption.stderr.contains("fetch needs")
                && consumption.stderr.contains("--issuer-id, --key-id and --private-key are missing"),
            "\(consumption.stderr)")
        // A dry run sends nothing and needs no key: then the facts file that cannot be read is said.
        let dryRun = try Self.run([
            "consumption", "--dry-run", "--database", archive.database, "--facts", archive.root + "/f.csv",
        ])
        #expect(dryRun.status == 64 && dryRun.stderr.contains("f.csv: the file cannot be read"), "\(dryRun.stderr)")
    }

    /// An archive of one signed notification: a subscription bought in October 2025.
    static func oneSubscriptionArchive() throws -> (TestArchive, AppFixture) {
        let archive = try TestArchive()
        let app = AppFixture()
        let time: Int64 = 1_760_000_000_000
        try archive.write(
            "n.jsonl",
            lines: [
                try app.notification(
                    type: "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", signedDate: time,
                    transaction: app.transaction(
                        id: "t1", purchase: time, expires: time + 2_592_000_000, signedDate: time))
            ])
        return (archive, app)
    }
}
