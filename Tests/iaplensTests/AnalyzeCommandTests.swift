import Foundation
import IAPTestSupport
import Testing

/// `iaplens analyze` and `run` keep models that stand, say so, and build them all again on `--rebuild`.
@Suite struct AnalyzeCommandTests {
    @Test func aSecondAnalysisWithNothingNewKeepsTheModelsUnlessAskedToRebuild() throws {
        let (archive, app) = try CLITests.oneSubscriptionArchive()
        let runArguments = [
            "run", "--json", "--input", archive.inputs, "--database", archive.database, "--reports",
            archive.reports, "--bundle-id", app.bundleId, "--root-certificate", try archive.trustedRoot(),
        ]
        func modelsRebuilt(_ output: CLI.Result) throws -> Bool? {
            let summary = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
            return (summary?["analysis"] as? [String: Any])?["models_rebuilt"] as? Bool
        }
        let first = try CLITests.run(runArguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try modelsRebuilt(first) == true)
        let second = try CLITests.run(runArguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try modelsRebuilt(second) == false)

        let kept = try CLITests.run(["analyze", "--database", archive.database])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stdout.contains("nothing new since the last analysis, whose models stand"), "\(kept.stdout)")
        let rebuilt = try CLITests.run(["analyze", "--rebuild", "--database", archive.database])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(rebuilt.stdout.hasPrefix("analyze: as of "))
        #expect(!rebuilt.stdout.contains("nothing new"), "\(rebuilt.stdout)")
        // Other options are other models.
        let other = try CLITests.run(["analyze", "--small-business", "--database", archive.database])
        #expect(!other.stdout.contains("nothing new"), "\(other.stdout)")
    }
}
