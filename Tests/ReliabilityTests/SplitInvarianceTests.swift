import Foundation
import IAPPipeline
import IAPTestSupport
import Testing

/// The same archive gives the same reports however it arrives: in one run, in ten runs of random
/// (overlapping) file subsets, one file per run in reverse order, and in one run listing the files backwards.
@Suite struct SplitInvarianceTests {
    func run(_ archive: SimulatedArchive, _ outputs: (database: String, reports: String), inputs: [String]? = nil)
        throws
    {
        _ = try Pipeline(
            configuration: archive.configuration(database: outputs.database, reports: outputs.reports, inputs: inputs)
        ).run()
    }

    @Test func reportsDoNotDependOnHowTheArchiveIsSplitIntoRuns() throws {
        let archive = try SimulatedArchive()
        let files = archive.inputFiles
        try #require(files.count >= 10)

        let whole = try archive.outputs("whole")
        try run(archive, whole, inputs: files)
        let expected = Tree.files(whole.reports)

        // Ten runs of random subsets (files may come again in a later run, as re-sent exports do); the last run
        // brings whatever no earlier run read.
        let subsets = try archive.outputs("subsets")
        var random = SeededRandom(seed: 20_261_121)
        var seen: Set<String> = []
        for index in 0..<10 {
            var subset = files.filter { _ in Int.random(in: 0..<10, using: &random) < 3 }
            if index == 9 { subset += files.filter { !seen.contains($0) } }
            seen.formUnion(subset)
            try run(archive, subsets, inputs: subset.isEmpty ? [files[index]] : subset.shuffled(using: &random))
        }
        var difference = Tree.difference(expected, Tree.files(subsets.reports))
        #expect(difference.isEmpty, "10 random subsets:\n\(difference)")

        // One file per run, newest path first.
        let reversed = try archive.outputs("reversed")
        for file in files.reversed() { try run(archive, reversed, inputs: [file]) }
        difference = Tree.difference(expected, Tree.files(reversed.reports))
        #expect(difference.isEmpty, "one file per run, reversed:\n\(difference)")

        // One run with the inputs listed in reverse.
        let backwards = try archive.outputs("backwards")
        try run(archive, backwards, inputs: files.reversed())
        difference = Tree.difference(expected, Tree.files(backwards.reports))
        #expect(difference.isEmpty, "one run, inputs listed backwards:\n\(difference)")
    }
}
