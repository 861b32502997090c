import Foundation
import IAPStore
import IAPTestSupport
import Testing

/// Options from `IAPLENS_*` variables, a misspelt one named, and the JSON summary.
@Suite struct CLIEnvironmentTests {
    /// Every option also comes from an `IAPLENS_*` variable (config file < environment < flags).
    @Test func optionsComeFromIAPLENSVariables() throws {
        let (archive, app) = try CLITests.oneSubscriptionArchive()
        let environment = [
            "IAPLENS_INPUT": archive.inputs, "IAPLENS_DATABASE": archive.database, "IAPLENS_REPORTS": archive.reports,
            "IAPLENS_BUNDLE_ID": app.bundleId, "IAPLENS_ROOT_CERTIFICATE": try archive.trustedRoot(),
        ]
        let output = try CLITests.run(["run", "--json"], environment: environment)
        #expect(output.status == 0, "\(output.stderr)")
        // --json: the summary as one JSON line.
        #expect(output.stdout.split(separator: "\n").count == 1)
        let summary = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        #expect((summary?["ingest"] as? [String: Any])?["accepted"] as? Int == 1)
        #expect(summary?["exit_code"] as? Int == 0)
        #expect(summary?["warnings"] as? [String] == [])
        #expect(((summary?["reports"] as? [String: Any])?["written"] as? Int ?? 0) > 0)
        #expect(FileManager.default.fileExists(atPath: archive.reports + "/index.md"))
        let wrong = try CLITests.run(
            ["status"], environment: ["IAPLENS_DATABASE": archive.database, "IAPLENS_APP_APPLE_ID": "twelve"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("IAPLENS_APP_APPLE_ID must be a whole number"))
        // A flag wins over the variable.
        let flag = try CLITests.run(
            ["status", "--database", archive.root + "/none.sqlite"], environment: ["IAPLENS_DATABASE": archive.database]
        )
        #expect(flag.status == 64, "the flag's store, which does not exist, is the one used")
    }

    /// `run --json` names the folders it left out: the reports folder kept under an input folder, from the second run
    /// on, when it holds the reports of the first.
    @Test func theJSONSummaryNamesTheReportsFolderLeftOut() throws {
        let (archive, app) = try CLITests.oneSubscriptionArchive()
        let reports = archive.inputs + "/reports"
        let arguments = [
            "run", "--json", "--input", archive.inputs, "--database", archive.database, "--reports", reports,
            "--bundle-id", app.bundleId, "--root-certificate", try archive.trustedRoot(),
        ]
        func leftOut(_ output: CLI.Result) throws -> [String]? {
            let summary = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
            return (summary?["ingest"] as? [String: Any])?["folders_left_out"] as? [String]
        }
        let first = try CLITests.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try leftOut(first) == [])
        let second = try CLITests.run(arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try leftOut(second) == [reports])
    }

    /// `run --json` counts the quarantine by reason, keys in byte order; half the documents quarantined is a data
    /// error (65), said in the same line.
    @Test func theJSONSummaryCountsTheQuarantineByReason() throws {
        let (archive, app) = try CLITests.oneSubscriptionArchive()
        try archive.write("unsigned.jsonl", lines: [#"{"signedPayload":"not.a.jws"}"#])
        let output = try CLITests.run([
            "run", "--json", "--input", archive.inputs, "--database", archive.database, "--reports", archive.reports,
            "--bundle-id", app.bundleId, "--root-certificate", try archive.trustedRoot(),
        ])
        #expect(output.status == 65, "\(output.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let ingest = summary?["ingest"] as? [String: Any]
        let reasons = ingest?["quarantined_by_reason"] as? [String: Int]
        #expect(reasons?.values.reduce(0, +) == 1, "\(output.stdout)")
        #expect(ingest?["apple_report_quarantine"] as? [String: Int] == [:])
        #expect(summary?["exit_code"] as? Int == 65)
    }

    /// A misspelt variable is named with the one it most likely meant; before, it was without effect and unsaid, where
    /// a configuration file's unknown key is refused. A name close to none (a wrapper's own) and the test suite's
    /// variables are not warned of.
    @Test func aMisspeltVariableIsNamedWithTheOneItMeant() throws {
        let archive = try TestArchive()
        let output = try CLITests.run(
            ["ingest", "--input", archive.inputs, "--database", archive.database],
            environment: [
                "IAPLENS_BUNDLEID": "com.example.tests", "IAPLENS_SOMETHING_ELSE_ENTIRELY": "1", "IAPLENS_TEST_X": "1",
            ])
        #expect(output.status == 64, "the bundle ID is still missing")
        #expect(
            output.stderr.contains(
                "warning: IAPLENS_BUNDLEID is set but iaplens reads no such variable: did you mean IAPLENS_BUNDLE_ID?"))
        #expect(!output.stderr.contains("IAPLENS_SOMETHING_ELSE_ENTIRELY"))
        #expect(!output.stderr.contains("IAPLENS_TEST_X"))
        let known = try CLITests.run(
            ["status", "--database", archive.database],
            environment: ["IAPLENS_MODEL_WORKERS": "1", "IAPLENS_QUIET": "1"])
        #expect(!known.stderr.contains("reads no such variable"), "\(known.stderr)")
    }
}
