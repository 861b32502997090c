import Foundation
import IAPTestSupport
import Testing

/// Issue 30 (9): copied alone to another folder, as a command-line tool is installed, `iaplens run` once ingested
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bin + "/iaplens")
        process.currentDirectoryURL = URL(fileURLWithPath: work)
        process.arguments = [
            "run", "--quiet", "--input", sample + "/notifications", "--database", "store.sqlite", "--reports", "reports",
            "--bundle-id", "com.example.iaplens.demo", "--app-apple-id", "1234567890",
            "--root-certificate", sample + "/certs/root.pem",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "IAPLENS_SQL_DIR")
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(FileManager.default.fileExists(atPath: work + "/reports/index.html"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: bin) == ["iaplens"], "nothing beside the binary")
    }
}
