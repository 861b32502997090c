import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Testing

/// Data becomes report text: CSV cells that a spreadsheet would evaluate (`=`, `+`, `-`, `@`, tab, CR)
/// are neutralised with a leading `'`, and Markdown escapes every character that could break a table or inject
/// markup. The hostile values arrive through properly signed documents and the accounts file, as an attacker
/// who controls a product name, an account ID or an order ID would send them.
@Suite struct InjectionTests {
    static let hostileProducts = [
        "=HYPERLINK(\"http://evil.example\",\"x\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\tTabbed",
        "\rReturned",
        "pipe|in|id", "<script>alert(1)</script>", "line\nbreak # Heading", "[link](http://evil.example)", "`code`",
    ]
    static let hostileAccount = "=IMPORTXML(\"http://evil.example\",\"//a\")|acct"
    static let hostileOrder = "@ORDER|=1+1"

    static func write(_ archive: TestArchive) throws -> AppFixture {
        let app = AppFixture()
        let token = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"
        var lines: [String] = []
        var refunded: [JSONValue] = []
        for (index, product) in hostileProducts.enumerated() {
            let purchase = 1_696_161_600_000 + Int64(index) * 3_600_000  // 2023-10-01T12:00Z + index hours
            let transaction = app.transaction(
                id: "inj-\(index)", product: product, type: "Consumable", purchase: purchase, price: 4_990,
                signedDate: purchase,
                extra: ["appAccountToken": .string(token)])
            lines.append(
                try app.notification(
                    type: "ONE_TIME_CHARGE", uuid: "inj-buy-\(index)", signedDate: purchase, transaction: transaction))
            let revoked = transaction.setting("revocationDate", .int(purchase + 86_400_000)).setting(
                "signedDate", .int(purchase + 86_400_000))
            lines.append(
                try app.notification(
                    type: "REFUND", uuid: "inj-refund-\(index)", signedDate: purchase + 86_400_000, transaction: revoked
                ))
            refunded.append(revoked)
        }
        try archive.write("notifications.jsonl", lines: lines)
        try archive.write(
            "lookups.jsonl", lines: [try app.orderLookup(orderId: hostileOrder, Array(refunded.prefix(2)))])
        let quoted = "\"" + hostileAccount.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        try Data("app_account_token,account_id\n\(token),\(quoted)\n".utf8).write(
            to: URL(fileURLWithPath: archive.root + "/accounts.csv"))
        return app
    }

    @Test func csvCellsAreNeutralisedAndMarkdownIsEscaped() throws {
        let archive = try TestArchive()
        let app = try Self.write(archive)
        _ = try Pipeline(
            configuration: try archive.configuration(app) { $0.accountsPath = archive.root + "/accounts.csv" }
        ).run()
        let files = Tree.files(archive.reports)
        let triggers: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]
        var seenProducts: Set<String> = []
        var seenAccount = false
        var seenOrder = false
        for (path, bytes) in files where path.hasSuffix(".csv") {
            for row in CSVReader.parse(String(decoding: bytes, as: UTF8.self)).dropFirst() {
                for cell in row {
                    if cell.first.map(triggers.contains) == true {
                        #expect(
                            Int(cell) != nil,
                            "\(path): cell \(cell.debugDescription) would be evaluated by a spreadsheet")
                    }
                    if cell.hasPrefix("'") { seenProducts.insert(String(cell.dropFirst())) }
                    if cell == "'" + Self.hostileAccount { seenAccount = true }
                    if cell == "'" + Self.hostileOrder { seenOrder = true }
                }
            }
        }
        for product in Self.hostileProducts where product.first.map(triggers.contains) == true {
            #expect(
                seenProducts.contains(product),
                "\(product.debugDescription) should appear neutralised as '\(product.debugDescription)")
        }
        #expect(seenAccount, "the flagged account's hostile ID should appear neutralised")
        #expect(seenOrder, "the hostile order ID should appear neutralised")

        for (path, bytes) in files where path.hasSuffix(".md") {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("<script"), "\(path): raw HTML from data")
            #expect(!text.contains("\r"), "\(path): a carriage return from data")
            #expect(!text.contains("[link](http"), "\(path): a link from data")
            var columns: Int?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(!line.hasPrefix("break"), "\(path): a newline in data started a new line: \(line)")
                guard line.hasPrefix("|") else { columns = nil; continue }
                let cells = Self.unescapedPipes(line)
                if let columns {
                    #expect(
                        cells == columns, "\(path): a table row with \(cells) separators instead of \(columns): \(line)"
                    )
                } else {
                    columns = cells
                }
            }
        }
        // The hostile values are really in the Markdown (escaped), so the checks above had something to check.
        let markdown = files.filter { $0.key.hasSuffix("report.md") }.map { String(decoding: $0.value, as: UTF8.self) }
            .joined()
        #expect(markdown.contains("pipe\\|in\\|id"), "product IDs with | should be in report.md, escaped")
        _ = app
    }

    /// Separators of a Markdown table row: `|` not escaped by a backslash.
    static func unescapedPipes(_ line: Substring) -> Int {
        var count = 0
        var escaped = false
        for character in line {
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = true } else if character == "|" { count += 1 }
        }
        return count
    }
}
