import Foundation
import IAPStore
import IAPTestSupport
import Testing

/// What `--database` may name: another application's database is refused and left
/// untouched, two paths to one store take one lock, and text from hostile documents never reaches the terminal raw.
@Suite struct StoreIdentityTests {
    @Test func anotherApplicationsSQLiteDatabaseIsRefusedAndLeftUntouched() throws {
        let archive = try TestArchive()
        let foreign = archive.root + "/crm.sqlite"
        let setup = Process()
        setup.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        setup.arguments = [
            "python3", "-c",
            "import sqlite3; c = sqlite3.connect('\(foreign)'); c.execute('create table customers (id integer)'); c.commit()",
        ]
        try setup.run()
        setup.waitUntilExit()
        let before = try Data(contentsOf: URL(fileURLWithPath: foreign))
        for command in [
            ["ingest", "--input", archive.inputs, "--bundle-id", "com.example.app"], ["status"],
            ["analyze", "--bundle-id", "com.example.app"],
        ] {
            let output = try CLITests.run(command + ["--database", foreign])
            #expect(output.status == 64, "\(command): \(output.stderr)")
            #expect(
                output.stderr.contains("is not an iaplens store") && output.stderr.contains("customers"), "\(command)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == before, "the foreign database was modified")
    }

    @Test func anotherApplicationsPostgresSchemaIsRefused() throws {
        let url = try TestPostgres.freshStore()
        let schema = String(url.split(separator: "=").last ?? "")
        let other = try TestPostgres.serverURL() + "?schema=\(schema)_crm"
        // A schema holding only someone else's table (made through an iaplens store's connection): refused.
        let server = try StoreLocation(url).open()
        try server.write {
            try $0.executeScript("CREATE SCHEMA \(schema)_crm; CREATE TABLE \(schema)_crm.customers (id int)")
        }
        #expect(throws: StoreError.notAStore(path: try PostgresURL(other).redacted, tables: ["customers"])) {
            _ = try StoreLocation(other).open()
        }
    }

    @Test func twoPathsToOneStoreTakeOneLock() throws {
        let archive = try TestArchive()
        let real = archive.root + "/real"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        _ = try SQLiteStore(path: real + "/store.sqlite")
        try FileManager.default.createSymbolicLink(atPath: archive.root + "/alias", withDestinationPath: real)
        try FileManager.default.createSymbolicLink(
            atPath: archive.root + "/link.sqlite", withDestinationPath: real + "/store.sqlite")
        let held = try StoreLocation(real + "/store.sqlite").lockForRun(command: "run")
        for path in [archive.root + "/alias/store.sqlite", archive.root + "/link.sqlite"] {
            #expect(throws: StoreError.self, "\(path) got past the lock") {
                _ = try StoreLocation(path).lockForRun(command: "run")
            }
        }
        withExtendedLifetime(held) {}
    }

    @Test func hostileTextNeverReachesTheTerminalRaw() throws {
        let archive = try TestArchive()
        // Key names with ESC (a terminal title sequence) and BEL: the line is quarantined, its message names them.
        try archive.write("hostile.jsonl", lines: [#"{"\u001b]0;pwned\u0007": 1, "\u001b[2J": 2}"#])
        let ingest = try CLITests.run([
            "ingest", "--input", archive.inputs, "--database", archive.database, "--bundle-id", "com.example.app",
        ])
        // Everything it read was quarantined: it completes, says so, and exits 65.
        #expect(ingest.status == 65, "\(ingest.stderr)")
        #expect(!ingest.stderr.contains("\u{1b}") && !ingest.stderr.contains("\u{07}"))
        let status = try CLITests.run(["status", "--database", archive.database, "--quarantine", "5"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("unknown_shape") || status.stdout.contains("bad_json"), "\(status.stdout)")
        for output in [status.stdout, status.stderr, ingest.stdout, ingest.stderr] {
            #expect(
                !output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 },
                "a control character was printed")
        }
    }
}
