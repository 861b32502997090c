import Foundation
import IAPStore
import IAPTestSupport
import Testing

/// What the log says: lines outside text cannot forge, and one line per problem of a reference file.
@Suite struct CLILogTests {
    /// Text from outside (a path, a server's error) cannot forge a log line or reorder what is shown. Before: a
    /// newline in it started a new, fake log line and U+202E was printed raw.
    @Test func outsideTextCannotForgeALogLine() throws {
        let archive = try TestArchive()
        let hostile = archive.root + "/nothing\n2026-01-01T00:00:00.000Z error: forged\u{202E}txt"
        let output = try CLITests.run([
            "ingest", "--input", hostile, "--database", archive.database, "--bundle-id", "com.example.tests",
        ])
        #expect(output.status == 64)
        let lines = output.stderr.split(separator: "\n")
        #expect(
            !lines.isEmpty && lines.allSatisfy { $0.first?.isNumber == true && $0.contains("Z ") }, "\(output.stderr)")
        #expect(!output.stderr.contains("\u{202E}") && output.stderr.contains("\\u{202e}"))
        #expect(!lines.contains { $0.hasPrefix("2026-01-01T00:00:00.000Z error: forged") })
    }

    /// A reference file with several bad rows is refused with every problem on a log line of its own, each naming
    /// the file and line. Before: the list was one message whose line breaks the log escaped, so it read
    /// `…run again:\u{a}  line 3: …` on one line.
    @Test func aReferenceFileWithSeveralProblemsListsEachOnItsOwnLogLine() throws {
        let archive = try TestArchive()
        let app = AppFixture()
        try archive.write("n.jsonl", lines: try CLITests.coinPurchases(1, of: app))
        let products = archive.root + "/products.csv"
        try """
        product_id,type,currency,price_milli
        com.example.ok,Consumable,USD,990
        com.example.x,Consumable,USD,9.99
        com.example.y,Weird Type,USD,100

        """.write(toFile: products, atomically: true, encoding: .utf8)
        let output = try CLITests.run([
            "run", "--input", archive.inputs, "--database", archive.database, "--reports", archive.reports,
            "--bundle-id", app.bundleId, "--root-certificate", try archive.trustedRoot(), "--products", products,
        ])
        #expect(output.status == 64)
        let lines = output.stderr.split(separator: "\n").filter { $0.contains(" error: ") }
        #expect(lines.count == 3, "\(output.stderr)")
        #expect(lines.first?.hasSuffix("\(products) has 2 problems; fix them and run again:") == true)
        #expect(lines.dropFirst().first?.contains("\(products) line 3: price_milli \"9.99\"") == true)
        #expect(lines.last?.contains("\(products) line 4: type \"Weird Type\"") == true)
        #expect(!output.stderr.contains("\\u{a}"))
    }
}
