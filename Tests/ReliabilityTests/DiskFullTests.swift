import Foundation
import IAPTestSupport
import Testing

/// A full or read-only disk: the run exits 1 with one sentence naming the file system, what was being
/// written and what to do; a rerun with space finishes the job with the reports an uninterrupted run writes. The
/// small file systems are tmpfs mounts the test makes (as root, as CI runs); where it cannot mount, the run reports
/// both tests as skipped, with the reason.
@Suite(.serialized) struct DiskFullTests {
    /// Whether this process can mount a tmpfs (root or CAP_SYS_ADMIN): tried once, with a one-page file system.
    static let canMount: Bool = SmallFileSystem(size: "4k") != nil
    static let cannotMount: Comment = "cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN, as CI has)"

    /// A tmpfs of `size` mounted on a fresh folder; unmounted on release.
    final class SmallFileSystem {
        let path: String

        init?(size: String) {
            path = NSTemporaryDirectory() + "iaplens-fs-\(UUID().uuidString.prefix(8))"
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            guard Self.mount(["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]) else {
                try? FileManager.default.removeItem(atPath: path)
                return nil
            }
        }

        func remount(_ options: String) -> Bool { Self.mount(["-o", "remount,\(options)", path]) }

        deinit {
            _ = Self.run("/bin/umount", [path])
            try? FileManager.default.removeItem(atPath: path)
        }

        private static func mount(_ arguments: [String]) -> Bool { run("/bin/mount", arguments) }

        private static func run(_ tool: String, _ arguments: [String]) -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
    }

    private func arguments(_ archive: SimulatedArchive, database: String, reports: String) -> [String] {
        ["run"] + archive.inputFolders.flatMap { ["--input", $0] } + [
            "--database", database, "--reports", reports, "--bundle-id", SimulatedArchive.bundleId,
            "--app-apple-id", String(SimulatedArchive.appAppleId), "--root-certificate", archive.simulatorRoot,
            "--root-certificate", archive.testRoot, "--products", archive.products, "--accounts", archive.accounts,
            "--max-quarantine-percent", "100", "--quiet",
        ]
    }

    @Test(.enabled(if: canMount, cannotMount)) func aFullStoreDiskSaysWhichAndARerunWithSpaceFinishes() throws {
        let disk = try #require(SmallFileSystem(size: "512k"))
        let archive = try SimulatedArchive()
        let clean = try archive.outputs("clean")
        #expect(try CLI.run(arguments(archive, database: clean.database, reports: clean.reports)).status == 0)

        let reports = archive.root + "/reports-full-store"
        let full = try CLI.run(arguments(archive, database: disk.path + "/store.sqlite", reports: reports))
        #expect(full.status == 1)
        #expect(
            full.stderr.contains("error: No space left on the file system mounted at \(disk.path)"), "\(full.stderr)")
        #expect(full.stderr.contains("move the store with --database to a larger disk, then rerun"))
        #expect(full.stderr.split(separator: "\n").count == 1)

        try #require(disk.remount("size=200m"))
        #expect(try CLI.run(arguments(archive, database: disk.path + "/store.sqlite", reports: reports)).status == 0)
        let difference = Tree.difference(Tree.files(clean.reports), Tree.files(reports))
        #expect(difference.isEmpty, "after the disk filled up and a rerun:\n\(difference)")
    }

    @Test(.enabled(if: canMount, cannotMount)) func aFullOrReadOnlyReportsDiskSaysWhichAndARerunFinishes() throws {
        let disk = try #require(SmallFileSystem(size: "256k"))
        let archive = try SimulatedArchive()
        let clean = try archive.outputs("clean")
        #expect(try CLI.run(arguments(archive, database: clean.database, reports: clean.reports)).status == 0)

        let outputs = try archive.outputs("full-reports")
        let reports = disk.path + "/reports"
        let full = try CLI.run(arguments(archive, database: outputs.database, reports: reports))
        #expect(full.status == 1)
        #expect(
            full.stderr.contains("error: No space left on the file system mounted at \(disk.path)"), "\(full.stderr)")
        #expect(full.stderr.contains("choose another --reports folder, then rerun `iaplens report`"))

        try #require(disk.remount("ro"))
        let readOnly = try CLI.run(arguments(archive, database: outputs.database, reports: reports))
        #expect(readOnly.status == 1)
        #expect(readOnly.stderr.contains("the file system mounted at \(disk.path) is read-only"), "\(readOnly.stderr)")

        try #require(disk.remount("rw,size=200m"))
        #expect(try CLI.run(arguments(archive, database: outputs.database, reports: reports)).status == 0)
        let difference = Tree.difference(Tree.files(clean.reports), Tree.files(reports))
        #expect(difference.isEmpty, "after the reports disk filled up and a rerun:\n\(difference)")
    }
}
