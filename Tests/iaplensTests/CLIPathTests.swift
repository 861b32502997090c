import Foundation
import IAPTestSupport
import Testing

/// A mistyped path stops a command at once with a sentence and exit 64, and leaves nothing behind: no store bound to
/// the bundle ID given, no lock file, no folder.
@Suite struct CLIPathTests {
    static func run(_ arguments: [String]) throws -> CLI.Result {
        try CLI.run(arguments, environment: nil, workingDirectory: nil)
    }

    @Test func mistypedPathsStopBeforeTheStoreIsTouched() throws {
        let archive = try TestArchive()
        let app = AppFixture()
        try archive.write("n.jsonl", lines: [try app.firstPurchase()])
        let failed = try Self.run([
            "report", "--database", archive.root + "/none.sqlite", "--bundle-id", app.bundleId, "--reports",
            archive.reports, "--quiet",
        ])
        #expect(failed.status == 64)
        #expect(
            failed.stderr.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z error: No store at .*\n/) != nil,
            "\(failed.stderr)")
        // A folder that does not exist either: the same sentence, not a lock that could not be made there.
        let nowhere = try Self.run([
            "report", "--database", archive.root + "/no-such-folder/x.sqlite", "--reports", archive.reports, "--quiet",
        ])
        #expect(nowhere.status == 64 && nowhere.stderr.contains("No store at"), "\(nowhere.stderr)")
        // run and ingest create the store file, never its folder: a folder that does not exist is a mistyped
        // --database (64), said as such rather than as a lock that could not be made (73).
        for command in ["run", "ingest"] {
            let folder = archive.root + "/no-such-store-folder"
            let missing = try Self.run(
                [
                    command, "--input", archive.inputs, "--database", folder + "/x.sqlite", "--bundle-id", app.bundleId,
                    "--quiet",
                ]
                    + (command == "run" ? ["--reports", archive.reports] : []))
            #expect(
                missing.status == 64
                    && missing.stderr.contains("its folder \(folder) does not exist; create it (mkdir -p"),
                "\(missing.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder))
        }
        // A folder that is a link to nothing: `mkdir -p` on it would fail, so the sentence names where it points.
        let link = archive.root + "/store-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: archive.root + "/gone")
        let danglingFolder = try Self.run([
            "ingest", "--input", archive.inputs, "--database", link + "/x.sqlite", "--bundle-id", app.bundleId,
            "--quiet",
        ])
        #expect(
            danglingFolder.status == 64
                && danglingFolder.stderr.contains(
                    "its folder \(link) is a link to \(archive.root)/gone, which does not exist"),
            "\(danglingFolder.stderr)")
        // A folder, or a file that is not a SQLite database, given as the store: said as such (64), not as a file
        // that could not be opened, and the file is left as it was.
        let notADatabase = archive.root + "/notes.sqlite"
        try "not a database, just notes".write(toFile: notADatabase, atomically: true, encoding: .utf8)
        for (database, sentence) in [
            (archive.root, "it is a folder; name a file in it, e.g. \(archive.root)/store.sqlite"),
            (notADatabase, "it is not a SQLite database"),
        ] {
            let wrong = try Self.run([
                "ingest", "--input", archive.inputs, "--database", database, "--bundle-id", app.bundleId, "--quiet",
            ])
            #expect(wrong.status == 64 && wrong.stderr.contains(sentence), "\(wrong.stderr)")
        }
        #expect(try String(contentsOfFile: notADatabase, encoding: .utf8) == "not a database, just notes")
        // A mistyped input: said, and no store (bound to the bundle ID given) or lock file left behind.
        for command in ["run", "ingest"] {
            let store = archive.root + "/\(command)-typo.sqlite"
            let typo = try Self.run(
                [
                    command, "--input", archive.root + "/no-such-input", "--database", store, "--bundle-id",
                    "com.example.typo", "--quiet",
                ]
                    + (command == "run" ? ["--reports", archive.reports] : []))
            #expect(typo.status == 64 && typo.stderr.contains("no-such-input\" does not exist"), "\(typo.stderr)")
            #expect(
                !FileManager.default.fileExists(atPath: store)
                    && !FileManager.default.fileExists(atPath: store + ".lock"))
        }
        // A missing reference file, or a file given as the reports folder: said before the store is opened.
        let notAFolder = archive.root + "/reports.txt"
        try "not a folder".write(toFile: notAFolder, atomically: true, encoding: .utf8)
        for (option, value, sentence) in [
            ("--products", archive.root + "/no-such-products.csv", "no-such-products.csv: the file cannot be read"),
            ("--reports", notAFolder, "is a file, not a folder"),
        ] {
            let store = archive.root + "/early.sqlite"
            let early = try Self.run(
                [
                    "run", "--input", archive.inputs, "--database", store, "--reports", archive.reports, "--bundle-id",
                    app.bundleId, "--quiet",
                ]
                    + [option, value])
            #expect(early.status == 64 && early.stderr.contains(sentence), "\(option): \(early.stderr)")
            #expect(!FileManager.default.fileExists(atPath: store), "\(option) left a store behind")
        }

        // The archive a configured fetch fills may be missing (it is made), but a link to nothing in its place is said
        // before the store is made, as any other input is.
        let dangling = archive.root + "/fetched-archive"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: archive.root + "/nowhere")
        let config = archive.root + "/fetch.json"
        try #"{"issuer-id": "i", "key-id": "k", "private-key": "/nonexistent.p8", "archive": "\#(dangling)"}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let store = archive.root + "/fetching.sqlite"
        let linked = try Self.run(
            [
                "run", "--config", config, "--input", archive.inputs, "--database", store, "--reports", archive.reports,
                "--bundle-id", app.bundleId, "--quiet",
            ])
        #expect(
            linked.status == 64 && linked.stderr.contains("fetched-archive\" is neither a regular file nor a folder"),
            "\(linked.stderr)")
        #expect(linked.stderr.contains("save a stream to a file and pass that"), "\(linked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// An empty file (`touch store.sqlite`, or a mistyped path that names one) is no store: the commands that read one
    /// say so and leave the file empty (SQLite would take it for an empty database, and the store's migrations would
    /// have made a store of it); `ingest` makes its store there.
    @Test func anEmptyFileIsNoStoreUntilIngestMakesOne() throws {
        let archive = try TestArchive()
        let app = AppFixture()
        try archive.write("n.jsonl", lines: [try app.firstPurchase()])
        let empty = archive.root + "/empty.sqlite"
        try Data().write(to: URL(fileURLWithPath: empty))
        // Through a link too, as SQLite follows it; and a link to nothing is no store either.
        let linkToEmpty = archive.root + "/link-to-empty.sqlite"
        let dangling = archive.root + "/dangling.sqlite"
        try FileManager.default.createSymbolicLink(atPath: linkToEmpty, withDestinationPath: empty)
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: archive.root + "/gone.sqlite")
        for database in [empty, linkToEmpty, dangling] {
            for command in [
                ["status"], ["analyze", "--bundle-id", app.bundleId], ["report", "--reports", archive.reports],
            ] {
                let output = try Self.run(command + ["--database", database, "--quiet"])
                #expect(
                    output.status == 64 && output.stderr.contains("No store at \(database)"),
                    "\(command[0]): \(output.stderr)")
                #expect(
                    try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int == 0,
                    "\(command[0]) wrote to the file")
                #expect(!FileManager.default.fileExists(atPath: empty + ".lock"), "\(command[0]) left a lock file")
                #expect(
                    !FileManager.default.fileExists(atPath: archive.root + "/gone.sqlite"),
                    "\(command[0]) made a store at the link's target")
            }
        }
        let ingest = try Self.run([
            "ingest", "--input", archive.inputs, "--database", empty, "--bundle-id", app.bundleId,
            "--root-certificate", try archive.trustedRoot(), "--quiet",
        ])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(try Self.run(["status", "--database", empty, "--quiet"]).status == 0)
        #expect(
            try Self.run(["status", "--database", linkToEmpty, "--quiet"]).status == 0, "a link to a store is the store"
        )
    }
}
