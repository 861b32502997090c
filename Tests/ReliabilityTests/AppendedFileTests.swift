import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Testing

/// A file that grows between runs (a monthly `.jsonl` appended to daily, a `.gz` gaining members) gives, after
/// every run, exactly the reports of one run over its final content: its quarantined, TEST and other-environment
/// copies are not counted again, and the file counts once.
@Suite struct AppendedFileTests {
    /// The archive's largest plain and gzip files, each written in three growing states into `folder`; the other
    /// files read whole. The first cut ends inside a line, as an exporter killed mid-write leaves it.
    @Test(arguments: StoreKind.allCases)
    func aGrowingFileIsCountedOnceWhateverTheRuns(_ kind: StoreKind) throws {
        let archive = try SimulatedArchive()
        let files = archive.inputFiles
        let whole = try archive.outputs("whole")
        try run(archive, whole, files, kind: kind)
        let expected = Tree.files(whole.reports)

        let plain = try #require(files.filter { $0.hasSuffix(".jsonl") }.max { size($0) < size($1) })
        let folder = archive.root + "/growing"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: plain)))
        let lineEnds = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }
        try #require(lineEnds.count >= 6, "a file of several lines to grow")
        let growing = folder + "/growing.jsonl"
        let growingGzip = folder + "/growing.jsonl.gz"
        let others = files.filter { $0 != plain }
        let gzipped = try #require(others.filter { $0.hasSuffix(".jsonl") }.max { size($0) < size($1) })
        let gzipBytes = Array(try Data(contentsOf: URL(fileURLWithPath: gzipped)))
        let gzipHalf =
            gzipBytes.indices.filter { gzipBytes[$0] == UInt8(ascii: "\n") }[
                max(0, gzipBytes.filter { $0 == 10 }.count / 2 - 1)] + 1
        let inputs = others.filter { $0 != gzipped } + [folder]

        let grown = try archive.outputs("grown")
        // A third, cut in the middle of a line; two thirds; all of it. The gzip file gains a member.
        let cuts = [lineEnds[lineEnds.count / 3] - 7, lineEnds[2 * lineEnds.count / 3], bytes.count]
        for (step, cut) in cuts.enumerated() {
            try Data(bytes[0..<cut]).write(to: URL(fileURLWithPath: growing))
            if step == 0 {
                try Data(Gzip.compress(Array(gzipBytes[0..<gzipHalf])) ?? []).write(
                    to: URL(fileURLWithPath: growingGzip))
            }
            if step == 1 {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: growingGzip))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(Gzip.compress(Array(gzipBytes[gzipHalf...])) ?? []))
                try handle.close()
            }
            try run(archive, grown, inputs, kind: kind)
        }
        let difference = Tree.difference(expected, Tree.files(grown.reports))
        #expect(difference.isEmpty, "a file grown over three runs:\n\(difference)")
        // And a fourth run with nothing new changes nothing.
        try run(archive, grown, inputs, kind: kind)
        #expect(Tree.difference(expected, Tree.files(grown.reports)).isEmpty)
    }

    private func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    private func run(
        _ archive: SimulatedArchive, _ outputs: (database: String, reports: String), _ inputs: [String], kind: StoreKind
    ) throws {
        var configuration = archive.configuration(database: outputs.database, reports: outputs.reports, inputs: inputs)
        if kind == .postgres {
            let marker = outputs.database + ".postgres-url"
            if let url = try? String(contentsOfFile: marker, encoding: .utf8) {
                configuration.databasePath = url
            } else {
                let url = try TestPostgres.freshStore()
                try url.write(toFile: marker, atomically: true, encoding: .utf8)
                configuration.databasePath = url
            }
        }
        _ = try Pipeline(configuration: configuration).run()
    }
}
