import Foundation
import IAPTestSupport
import Testing

/// Copied alone to another folder, as a command-line tool is installed, `iaplens run` once ingested
/// everything and only then failed: "SQL files not found … set IAPLENS_SQL_DIR". The models are built into the
/// binary now.
@Suite struct InstalledBinaryTests {
    @Test func theBinaryCopiedAloneRunsTheWholePipelineFromAnEmptyFolder() throws {
        let archive = try TestArchive()
        let bin = archive.root + "/prefix/bin"
        let work = archive.root + "/empty"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLITests.binary, toPath: bin + "/iaplens")
        let sample = CLITests.repository.appendingPathComponent("data/sample/archive").path
        // An empty IAPLENS_SQL_DIR counts as unset: the models must come from the binary itself.
        let result = try CLI.Running(
            [
                "run", "--quiet", "--input", sample + "/notifications", "--database", "store.sqlite", "--reports",
                "reports",
                "--bundle-id", "com.example.iaplens.demo", "--app-apple-id", "1234567890",
                "--root-certificate", sample + "/certs/root.pem",
            ], environment: ["IAPLENS_SQL_DIR": ""], workingDirectory: work, executable: bin + "/iaplens"
        ).wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: work + "/reports/index.html"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: bin) == ["iaplens"], "nothing beside the binary")
    }
}
