import Foundation
import IAPStore
import IAPTestSupport
import Testing

/// Runs the built `iaplens` binary as a user would: help, exit codes, a full run, the README.
@Suite struct CLITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: String {
        for configuration in ["debug", "release"] {
            let path = repository.appendingPathComponent(".build/\(configuration)/iaplens").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return repository.appendingPathComponent(".build/debug/iaplens").path
    }

    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ arguments: [String], in directory: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test(arguments: ["run", "fetch", "consumption", "ingest", "analyze", "report", "status", "simulate", "demo", "reasons"])
    func everySubcommandHasHelp(_ command: String) throws {
        let output = try Self.run([command, "--help"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("USAGE: iaplens \(command)"))
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

    @Test func simulatorOptionOutOfRangeIsAOneLineError() throws {
        let output = try Self.run(["simulate", "--output", NSTemporaryDirectory() + "x", "--subscribers=-3"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--subscribers must be between 0 and 5000000 (got -3)"))
    }

    @Test func aFullRunFromAnotherDirectoryWritesReportsAndExitsZero() throws {
        let archive = try TestArchive()
        let app = AppFixture()
        try archive.write("n.jsonl", lines: [
            try app.notification(
                type: "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", signedDate: 1_760_000_000_000,
                transaction: app.transaction(id: "t1", purchase: 1_760_000_000_000, expires: 1_762_592_000_000, signedDate: 1_760_000_000_000)),
            "not json",
        ])
        let output = try Self.run([
            "run", "--input", archive.inputs, "--database", archive.database, "--reports", archive.reports,
            "--bundle-id", app.bundleId, "--app-apple-id", String(app.appAppleId), "--root-certificate", try archive.trustedRoot(),
        ], in: NSTemporaryDirectory())
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("1 quarantined"))
        #expect(FileManager.default.fileExists(atPath: archive.reports + "/2025-10/churn.csv"))
        let status = try Self.run(["status", "--database", archive.database, "--quarantine", "5"])
        #expect(status.stdout.contains("bad_json"))
        #expect(status.stdout.contains("n.jsonl:2"))
    }

    @Test func theReadmeDocumentsEveryQuarantineReason() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        for reason in QuarantineReason.allCases {
            #expect(readme.contains("| `\(reason.rawValue)` | \(reason.meaning) | \(reason.remedy) |"), "README lacks \(reason.rawValue)")
        }
    }

    @Test func versionNamesTheReleaseAndTheStoreMigrations() throws {
        let output = try Self.run(["--version"])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("iaplens 0."))
        #expect(output.stdout.contains("SQLite migration v8"))
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
}
