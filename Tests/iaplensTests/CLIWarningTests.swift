import Foundation
import IAPStore
import IAPTestSupport
import Testing

/// The warnings a run and the pages lead with: a quarantine share beyond the threshold, a store mostly of another
/// environment.
extension CLITests {
    /// Test-signed data without its --root-certificate: nearly everything is quarantined. The run completes, warns
    /// naming the reason and its remedy, every page opens with the warning, and the exit code is 65.
    @Test func aRunThatQuarantinesMostOfItsInputWarnsEverywhereAndExits65() throws {
        let archive = try TestArchive()
        let app = AppFixture()
        try archive.write("n.jsonl", lines: try Self.coinPurchases(5, of: app))
        let arguments = ["run", "--input", archive.inputs, "--bundle-id", app.bundleId]
        let output = try Self.run(arguments + ["--database", archive.database, "--reports", archive.reports])
        #expect(output.status == 65, "\(output.stderr)")
        #expect(output.stderr.contains("100 % of the documents read (5 of 5) were quarantined"))
        #expect(output.stderr.contains("--root-certificate"), "the remedy is named")
        let index = try String(contentsOfFile: archive.reports + "/index.md", encoding: .utf8)
        #expect(index.contains("were quarantined"))
        // With its root the same data is a good run.
        let fixed = try Self.run(
            arguments + [
                "--root-certificate", try archive.trustedRoot(), "--database", archive.root + "/good.sqlite",
                "--reports", archive.root + "/good",
            ])
        #expect(fixed.status == 0, "\(fixed.stderr)")
    }

    /// With months to show, the warning is at the top of the index too (it was among the notes at its bottom), is
    /// said once by `run`, and again by `report` alone, which reads the store, not a run.
    @Test func aStoreMostlyQuarantinedIsWarnedOfAtTheTopOfTheIndexAndByReport() throws {
        let archive = try TestArchive()
        let app = AppFixture()
        try archive.write(
            "n.jsonl", lines: ["not json", "{\"neither\": 1}", "[1]"] + (try Self.coinPurchases(4, of: app)))
        let store = ["--database", archive.database, "--reports", archive.reports]
        let output = try Self.run(
            [
                "run", "--input", archive.inputs, "--bundle-id", app.bundleId, "--root-certificate",
                try archive.trustedRoot(),
            ] + store)
        #expect(output.status == 65, "\(output.stderr)")
        #expect(output.stderr.components(separatedBy: "were quarantined").count == 2, "said once: \(output.stderr)")
        let index = try String(contentsOfFile: archive.reports + "/index.md", encoding: .utf8)
        let warning = try #require(
            index.range(of: "**Warning:** 42 % of the documents read (3 of 7) were quarantined"), "\(index)")
        let months = try #require(index.range(of: "## Months"))
        #expect(warning.lowerBound < months.lowerBound)
        #expect(!index.contains("- 42 % of the documents read"), "not repeated among the notes")
        #expect(
            index.contains("fix the exporter if many lines are affected. The figures count only the rest."),
            "the remedy is not cut")
        let report = try Self.run(["report"] + store)
        #expect(
            report.stderr.contains("warning: 42 % of the documents read (3 of 7) were quarantined"), "\(report.stderr)")
        // For monitoring: `run --json` lists the warnings (this run read nothing new; the store's share still holds).
        let json = try Self.run(
            [
                "run", "--json", "--input", archive.inputs, "--bundle-id", app.bundleId, "--root-certificate",
                try archive.trustedRoot(),
            ]
                + store)
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let warnings = summary?["warnings"] as? [String] ?? []
        #expect(
            warnings.count == 1 && warnings[0].hasPrefix("42 % of the documents read (3 of 7) were quarantined"),
            "\(json.stdout)")
    }

    /// An archive mostly of another environment than the one counted is said by the run and atop the index, with
    /// the environment to pass. Before: the run exited 0 with reports resting on the few documents left.
    @Test func anArchiveMostlyOfAnotherEnvironmentSaysWhichToCount() throws {
        let archive = try TestArchive()
        var sandbox = AppFixture()
        sandbox.environment = "Sandbox"
        try archive.write(
            "n.jsonl", lines: try Self.coinPurchases(1, of: AppFixture()) + Self.coinPurchases(3, of: sandbox, first: 1)
        )
        let output = try Self.run([
            "run", "--input", archive.inputs, "--bundle-id", sandbox.bundleId, "--root-certificate",
            try archive.trustedRoot(),
            "--database", archive.database, "--reports", archive.reports,
        ])
        let warning =
            "3 of the 4 documents stored are of another environment than Production, the one the figures count "
            + "(Sandbox 3): the figures rest on the 1 left. If the archive is Sandbox's, run with --environment Sandbox."
        #expect(output.status == 0)
        #expect(output.stderr.contains("warning: " + warning), "\(output.stderr)")
        let index = try String(contentsOfFile: archive.reports + "/index.md", encoding: .utf8)
        #expect(index.contains("**Warning:** " + warning))
    }

    /// A folder that holds files, none of which iaplens reads (a mistyped --input, an export of something else), is not
    /// an unmounted archive: the warning says what the files are not and names the first, and the exit is still 66.
    @Test func aRunThatFindsOnlyFilesItDoesNotReadNamesThemAndExits66() throws {
        let archive = try TestArchive()
        try archive.write("notes.csv", bytes: Array("product,notes\ncoins,none\n".utf8))
        let output = try Self.run([
            "ingest", "--input", archive.inputs, "--database", archive.database, "--bundle-id", "com.example.tests",
        ])
        #expect(output.status == 66)
        #expect(
            output.stderr.contains("its 1 file(s) are neither .json/.jsonl/.ndjson(.gz) documents"), "\(output.stderr)")
        #expect(output.stderr.contains("notes.csv"), "the first file is named")
        #expect(!output.stderr.contains("mounted"), "the folder is there: \(output.stderr)")
    }
}
