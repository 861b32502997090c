import Foundation
import IAPFormats
import IAPTestSupport
import Testing

/// Inputs are only read; outputs are only written under `--reports` and at `--database`. The CLI runs in
/// a sandbox folder (TMPDIR and the working directory inside it); every file in the sandbox is fingerprinted
/// before and after. Tests run as root, so read-only permission bits would prove nothing: the fingerprints do.
@Suite struct PathSafetyTests {
    static func sandbox() throws -> String {
        let root = NSTemporaryDirectory() + "iaplens-paths-\(UUID().uuidString.prefix(8))"
        for folder in ["inputs", "out/db", "tmp", "cwd"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        return root
    }

    @Test func theCLIReadsInputsOnlyAndWritesOnlyTheReportsAndTheStore() throws {
        let root = try Self.sandbox()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let archive = try SimulatedArchive()
        try FileManager.default.copyItem(atPath: archive.data, toPath: root + "/inputs/archive")
        try FileManager.default.copyItem(atPath: archive.testRoot, toPath: root + "/inputs/test-root.pem")
        // Hostile names in the data: product IDs that look like paths, in signed documents and in products.csv.
        let app = Hostile.app
        var lines: [String] = []
        for (index, product) in ["../../../../etc/iaplens-evil", "/tmp/iaplens-evil", "..", "2022-03/../../evil"]
            .enumerated()
        {
            let transaction = app.transaction(
                id: "path-\(index)", product: product, type: "Consumable", purchase: Hostile.march, price: 990,
                signedDate: Hostile.march)
            lines.append(
                try app.notification(
                    type: "ONE_TIME_CHARGE", uuid: "path-\(index)", signedDate: Hostile.march, transaction: transaction)
            )
            let refunded = transaction.setting("revocationDate", .int(Hostile.march + 3_600_000)).setting(
                "signedDate", .int(Hostile.march + 3_600_000))
            lines.append(
                try app.notification(
                    type: "REFUND", uuid: "path-refund-\(index)", signedDate: Hostile.march + 3_600_000,
                    transaction: refunded))
        }
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(
            to: URL(fileURLWithPath: root + "/inputs/archive/notifications/paths.jsonl"))
        let products = try String(contentsOfFile: root + "/inputs/archive/products.csv", encoding: .utf8)
        try (products + "../../../../etc/iaplens-evil,Consumable,USD,990\n").write(
            toFile: root + "/inputs/archive/products.csv", atomically: true, encoding: .utf8)

        let inputsBefore = Tree.fingerprint(root + "/inputs")
        let othersBefore = Tree.fingerprint(root).filter { !$0.key.hasPrefix("out/") && $0.key != "out" }
        let database = root + "/out/db/store.sqlite"
        let reports = root + "/out/reports"
        var arguments = [
            "run", "--database", database, "--reports", reports, "--bundle-id", SimulatedArchive.bundleId,
            "--app-apple-id", String(SimulatedArchive.appAppleId),
            "--root-certificate", root + "/inputs/archive/certs/root.pem", "--root-certificate",
            root + "/inputs/test-root.pem",
            "--products", root + "/inputs/archive/products.csv", "--accounts", root + "/inputs/archive/accounts.csv",
        ]
        for folder in SimulatedArchive.dataFolders { arguments += ["--input", root + "/inputs/archive/" + folder] }
        let environment = ["TMPDIR": root + "/tmp", "HOME": root + "/tmp"]
        let result = try CLI.run(arguments, environment: environment, workingDirectory: root + "/cwd")
        #expect(result.status == 0, "\(result.stderr)")
        // Hostile --month values are refused before anything is written.
        for month in ["../../evil", "2022-03/../../evil", "/tmp/evil", "2022-13", "..", "2022-+3"] {
            let refused = try CLI.run(
                arguments + ["--month", month], environment: environment, workingDirectory: root + "/cwd")
            #expect(refused.status == 64, "--month \(month): exit \(refused.status) \(refused.stderr)")
        }
        // A second run over the same inputs (reads only, writes nothing new).
        #expect(try CLI.run(arguments, environment: environment, workingDirectory: root + "/cwd").status == 0)

        #expect(Tree.fingerprint(root + "/inputs") == inputsBefore, "an input file or folder changed")
        let othersAfter = Tree.fingerprint(root).filter { !$0.key.hasPrefix("out/") && $0.key != "out" }
        #expect(
            othersAfter == othersBefore,
            "files appeared outside --reports and --database: \(Set(othersAfter.keys).subtracting(othersBefore.keys).sorted())"
        )
        let outputs = Tree.fingerprint(root + "/out").keys.filter { !$0.hasPrefix("reports") && $0 != "db" }
        let allowed: Set<String> = [
            "db/store.sqlite", "db/store.sqlite-wal", "db/store.sqlite-shm", "db/store.sqlite-journal",
            "db/store.sqlite.lock",
        ]
        #expect(Set(outputs).isSubset(of: allowed), "unexpected files beside the store: \(outputs.sorted())")
        let reportFiles = Tree.files(reports).keys
        #expect(!reportFiles.isEmpty)
        let contract: Set<String> = [
            "churn.csv", "subscriptions.csv", "expiration_intents.csv", "billing_retry.csv", "refunds.csv",
            "consumable_losses.csv",
            "flagged_accounts.csv", "reconciliation.csv", "apple_reconciliation.csv", "apple_payments.csv", "mrr.csv",
            "countries.csv", "order_lookups.csv", "consumption_requests.csv",
            "report.md", "report.html",
        ]
        for file in reportFiles
        where !["index.md", "index.html", "style.css", ".iaplens-files", "months.csv", "cohorts.csv"].contains(file) {
            let parts = file.split(separator: "/")
            // A month's files; its charts and case pages one level down; the index's charts. Names from data never
            // make a path: a case page's name is a safe prefix and a hash.
            let expected =
                (parts.count == 2 && PathSafetyTests.isMonth(parts[0]) && contract.contains(String(parts[1])))
                || (parts.count == 2 && parts[0] == "charts" && parts[1].hasSuffix(".svg"))
                || (parts.count == 3 && PathSafetyTests.isMonth(parts[0]) && parts[1] == "charts"
                    && parts[2].hasSuffix(".svg"))
                || (parts.count == 3 && PathSafetyTests.isMonth(parts[0]) && parts[1] == "accounts"
                    && parts[2].hasSuffix(".html")
                    && parts[2].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
            #expect(expected, "unexpected report file \(file)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/etc/iaplens-evil"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/iaplens-evil"))
        // The hostile product is in the data, so the run really had a path-like product ID to write.
        let refunds = Tree.files(reports).filter { $0.key.hasSuffix("refunds.csv") }
        #expect(refunds.values.contains { String(decoding: $0, as: UTF8.self).contains("etc/iaplens-evil") })
    }

    static func isMonth(_ text: Substring) -> Bool {
        text.count == 7
            && text.enumerated().allSatisfy { index, character in
                index == 4 ? character == "-" : character.isASCII && character.isNumber
            }
    }
}
