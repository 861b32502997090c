import Foundation
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One store, one run at a time: a second `iaplens` command started while `iaplens run` holds the
/// store exits 75 with one line naming the holder, and the first run finishes unharmed.
@Suite struct ConcurrencyTests {
    @Test func aSecondRunOnTheSameStoreExits75NamingTheHolderAndTheFirstFinishesUnharmed() throws {
        let archive = try SimulatedArchive()
        let reference = try archive.outputs("reference")
        let alone = try CLI.run(archive.runArguments(database: reference.database, reports: reference.reports))
        try #require(alone.status == 0, "\(alone.stderr)")

        let outputs = try archive.outputs("shared")
        let first = try CLI.Running(archive.runArguments(database: outputs.database, reports: outputs.reports))
        // Wait until the first run holds the lock and has written its note, then freeze it there (SIGSTOP), so the
        // second command certainly meets a run in progress however fast the machine is.
        let lockPath = outputs.database + ".lock"
        let deadline = Date().addingTimeInterval(60)
        var note = ""
        while Date() < deadline {
            note = (try? String(contentsOfFile: lockPath, encoding: .utf8)) ?? ""
            if note.contains("pid \(first.pid) ") { break }
            usleep(1_000)
        }
        kill(first.pid, SIGSTOP)
        defer { kill(first.pid, SIGCONT) }
        try #require(note.contains("pid \(first.pid) (iaplens run"), "the first run never wrote its lock note: \(note)")

        for command in ["run", "ingest", "analyze", "report"] {
            var arguments = archive.runArguments(database: outputs.database, reports: outputs.reports)
            arguments[0] = command
            if command == "analyze" {
                arguments = ["analyze", "--database", outputs.database, "--bundle-id", SimulatedArchive.bundleId]
            } else if command == "report" {
                arguments = [
                    "report", "--database", outputs.database, "--reports", outputs.reports, "--bundle-id",
                    SimulatedArchive.bundleId,
                ]
            } else if command == "ingest" {
                arguments =
                    [
                        "ingest", "--database", outputs.database, "--bundle-id", SimulatedArchive.bundleId,
                        "--root-certificate", archive.simulatorRoot,
                    ] + archive.inputFolders.flatMap { ["--input", $0] }
            }
            let second = try CLI.run(arguments, timeout: 60)
            #expect(second.status == 75, "\(command): exit \(second.status): \(second.stderr)")
            let lines = second.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(command): one line expected on stderr, got: \(second.stderr)")
            #expect(
                second.stderr.contains("pid \(first.pid) (iaplens run"),
                "\(command): the message must name the holder: \(second.stderr)")
            #expect(second.stdout.isEmpty, "\(command): \(second.stdout)")
        }
        kill(first.pid, SIGCONT)
        let result = try first.wait(timeout: 300)
        #expect(result.status == 0, "the first run was harmed: \(result.stderr)")
        let difference = Tree.difference(Tree.files(reference.reports), Tree.files(outputs.reports))
        #expect(difference.isEmpty, "\(difference)")
        #expect(try SQLiteStore(path: outputs.database).integrityProblems() == [])
        #expect(
            try CrashSafetyTests.rowCounts(outputs.database) == (try CrashSafetyTests.rowCounts(reference.database)))
    }

    @Test(arguments: StoreKind.allCases)
    func inProcessTheLockNamesItsHolderAndIsFreeAgainWhenReleased(_ kind: StoreKind) throws {
        let folder = NSTemporaryDirectory() + "iaplens-lock-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let location = try StoreLocation(try kind.freshDatabase(in: folder))
        var holder: (any StoreRunLock)? = try location.lockForRun(command: "run")
        #expect(throws: StoreError.self) { _ = try location.lockForRun(command: "ingest") }
        do {
            _ = try location.lockForRun(command: "ingest")
        } catch let error as StoreError {
            #expect(error.exitCode == 75)
            #expect(error.description.contains("pid \(getpid()) (iaplens run"))
            #expect(!error.description.contains("\n"))
        }
        withExtendedLifetime(holder) {}
        holder = nil
        #expect(throws: Never.self) { _ = try location.lockForRun(command: "ingest") }
    }

    /// A run that ends frees the store at once for the next one, as a script running `ingest` then `analyze` needs:
    /// taken and released many times in a row, the lock is always free again. On PostgreSQL it is released before
    /// the connection closes: left to the server, it is freed only when the session ends, a moment later, and the
    /// next run could find it still held ("in use by another iaplens process").
    @Test(arguments: StoreKind.allCases)
    func aReleasedLockIsFreeForTheNextRunAtOnce(_ kind: StoreKind) throws {
        let folder = NSTemporaryDirectory() + "iaplens-relock-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let location = try StoreLocation(try kind.freshDatabase(in: folder))
        for round in 0..<40 {
            #expect(throws: Never.self, "round \(round)") {
                let lock = try location.lockForRun(command: "run")
                withExtendedLifetime(lock) {}
            }
        }
    }

    /// Before: a hard link to the SQLite store (another name of the same file, in another folder) took a lock of its
    /// own, so two runs wrote one store at once. After: the store file itself is locked too.
    @Test func aHardLinkToTheStoreTakesTheSameLock() throws {
        let folder = NSTemporaryDirectory() + "iaplens-hardlink-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder + "/a", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/b", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = folder + "/a/store.sqlite"
        _ = try StoreLocation(original).open()
        try FileManager.default.linkItem(atPath: original, toPath: folder + "/b/other-name.sqlite")
        var holder: (any StoreRunLock)? = try StoreLocation(original).lockForRun(command: "run")
        do {
            _ = try StoreLocation(folder + "/b/other-name.sqlite").lockForRun(command: "ingest")
            Issue.record("a hard link took a second lock on the same store")
        } catch let error as StoreError {
            #expect(error.exitCode == 75 && error.description.contains("hard link"), "\(error)")
        }
        withExtendedLifetime(holder) {}
        holder = nil
        #expect(throws: Never.self) {
            _ = try StoreLocation(folder + "/b/other-name.sqlite").lockForRun(command: "ingest")
        }
    }
}
