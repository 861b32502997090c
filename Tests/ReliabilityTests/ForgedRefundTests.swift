import Foundation
import GRDB
import IAPFormats
import IAPPipeline
import IAPStore
import IAPTestSigning
import IAPTestSupport
import Testing

/// Forged refunds for real accounts: documents of exactly the right shape, about real transactions of a
/// real, unflagged account, signed by a chain that does not lead to the trusted root. In every form a refund can
/// arrive they must never flag the account or move a figure. The same documents signed by the trusted chain do
/// flag it: the control that proves the forgeries would bite if verification let them through.
@Suite struct ForgedRefundTests {
    struct Target {
        let account: String
        let transactions: [JSONValue]
    }

    /// The unflagged account with the most unrefunded V2 purchases, and those purchases refunded a day later.
    static func target(database: String, reports: String) throws -> Target {
        let flagged = Tree.files(reports).filter { $0.key.hasSuffix("flagged_accounts.csv") }
            .flatMap { CSVReader.records(String(decoding: $0.value, as: UTF8.self)).compactMap { $0["account_id"] } }
        let store = try SQLiteStore(path: database)
        let rows = try store.database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT a.account_id, t.transaction_id, t.original_transaction_id, t.product_id, t.type, t.purchase_date,
                           t.expires_date, t.price, t.currency, t.app_account_token
                    FROM transactions t JOIN ref_accounts a ON a.app_account_token = t.app_account_token
                    WHERE t.revocation_date IS NULL AND t.format = 'v2' AND t.environment = 'Production'
                      AND t.price IS NOT NULL AND t.purchase_date IS NOT NULL
                    ORDER BY a.account_id, t.purchase_date, t.transaction_id
                    """)
        }
        let byAccount = Dictionary(grouping: rows) { $0["account_id"] as String }.filter { !flagged.contains($0.key) }
        let (account, purchases) = try #require(byAccount.max { ($0.value.count, $1.key) < ($1.value.count, $0.key) })
        try #require(purchases.count >= 3, "no account with three purchases to forge refunds for")
        let app = Hostile.app
        let transactions = purchases.prefix(4).map { row -> JSONValue in
            let purchase: Int64 = row["purchase_date"]
            let expires: Int64? = row["expires_date"]
            return app.transaction(
                id: row["transaction_id"], original: row["original_transaction_id"], product: row["product_id"],
                type: row["type"],
                purchase: purchase, expires: expires, price: row["price"], currency: row["currency"],
                signedDate: purchase + 2 * 86_400_000,
                extra: [
                    "appAccountToken": JSONValue.string(row["app_account_token"]),
                    "revocationDate": JSONValue.int(purchase + 86_400_000), "revocationReason": 0,
                ])
        }
        return Target(account: account, transactions: transactions)
    }

    /// The forged refunds in every form a refund reaches iaplens: webhook, envelope, notification history, refund
    /// history, order lookup, and a trusted notification carrying a forged transaction.
    static func forgeries(_ target: Target, signer: JWSSigner) throws -> [(String, [String])] {
        var app = Hostile.app
        app.signer = signer
        var trustedOuter = Hostile.app
        trustedOuter.signer = TestChains.signer
        var webhook: [String] = []
        var envelopes: [String] = []
        var history: [JSONValue] = []
        var nested: [String] = []
        for (index, transaction) in target.transactions.enumerated() {
            let revoked = transaction["revocationDate"]?.numberValue?.int64 ?? 0
            let payload = try app.notificationPayload(
                type: "REFUND", uuid: "forged-\(index)", signedDate: revoked, transaction: transaction)
            let line = AppFixture.body(try app.sign(payload))
            webhook.append(line)
            envelopes.append(try AppFixture.envelope(receivedAt: .int(revoked + 1_000), body: line))
            history.append([
                "signedPayload": .string(try app.sign(payload.setting("notificationUUID", .string("forged-h\(index)"))))
            ])
            // A trusted outer notification whose nested transaction is the forgery.
            let outer = try trustedOuter.notificationPayload(
                type: "REFUND", uuid: "forged-n\(index)", signedDate: revoked,
                data: ["signedTransactionInfo": .string(try app.sign(transaction))])
            nested.append(AppFixture.body(try trustedOuter.sign(outer)))
        }
        let historyPage: JSONValue = ["notificationHistory": .array(history), "hasMore": false]
        return [
            ("forged-webhooks.jsonl", webhook),
            ("forged-envelopes.jsonl", envelopes),
            ("forged-notification-history.json", [historyPage.text]),
            ("forged-refund-history.json", [try app.refundPage(target.transactions)]),
            ("forged-order-lookup.json", [try app.orderLookup(orderId: "MFORGED1", target.transactions)]),
            ("forged-nested.jsonl", nested),
        ]
    }

    static func write(_ files: [(String, [String])], to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, lines) in files {
            try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
    }

    static func flaggedAccounts(_ reports: String) -> Set<String> {
        Set(
            Tree.files(reports).filter { $0.key.hasSuffix("flagged_accounts.csv") }
                .flatMap {
                    CSVReader.records(String(decoding: $0.value, as: UTF8.self)).compactMap { $0["account_id"] }
                })
    }

    @Test func forgedRefundsForARealAccountNeverFlagItNorMoveAFigure() throws {
        let archive = try SimulatedArchive()
        let clean = try archive.outputs("clean")
        _ = try Pipeline(configuration: archive.configuration(database: clean.database, reports: clean.reports)).run()
        let expected = Tree.csvFiles(clean.reports)
        let target = try Self.target(database: clean.database, reports: clean.reports)
        #expect(!Self.flaggedAccounts(clean.reports).contains(target.account))

        // Control: signed by the trusted chain, the very same documents flag the account and move refund figures.
        let control = try archive.outputs("control")
        let controlFolder = archive.root + "/control-refunds"
        try Self.write(try Self.forgeries(target, signer: TestChains.signer), to: controlFolder)
        var configuration = archive.configuration(database: control.database, reports: control.reports)
        configuration.inputs.append(controlFolder)
        let controlSummary = try Pipeline(configuration: configuration).run()
        #expect(
            controlSummary.ingest.quarantined == (try Self.quarantined(clean.database)),
            "the control documents must all be accepted")
        #expect(
            Self.flaggedAccounts(control.reports).contains(target.account),
            "control: the trusted forgeries should flag \(target.account)")
        #expect(Tree.csvFiles(control.reports) != expected)

        // The forgeries: same documents, untrusted chain. Added to the clean store, and read together in a fresh one.
        let forgedFolder = archive.root + "/forged-refunds"
        let forgeries = try Self.forgeries(target, signer: TestChains.untrustedSigner)
        try Self.write(forgeries, to: forgedFolder)
        for (name, outputs) in [("added later", clean), ("read together", try archive.outputs("together"))] {
            configuration = archive.configuration(database: outputs.database, reports: outputs.reports)
            configuration.inputs.append(forgedFolder)
            _ = try Pipeline(configuration: configuration).run()
            let difference = Tree.difference(expected, Tree.csvFiles(outputs.reports))
            #expect(difference.isEmpty, "\(name): forged refunds moved a figure:\n\(difference)")
            #expect(!Self.flaggedAccounts(outputs.reports).contains(target.account), "\(name)")
            let store = try SQLiteStore(path: outputs.database)
            let reasons = try store.database.read { db in
                try String.fetchAll(
                    db, sql: "SELECT reason FROM quarantine WHERE path LIKE ?", arguments: [forgedFolder + "/%"])
            }
            #expect(
                reasons.count == forgeries.count * target.transactions.count,
                "\(name): one quarantined entry per forged document: \(reasons)")
            #expect(Set(reasons) == ["untrusted_chain"], "\(name): \(reasons)")
            let revoked = try store.database.read { db in
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT count(*) FROM transactions WHERE revocation_date IS NOT NULL AND app_account_token IN (SELECT app_account_token FROM ref_accounts WHERE account_id = ?)",
                    arguments: [target.account])
            }
            #expect(revoked == 0, "\(name)")
        }
    }

    static func quarantined(_ database: String) throws -> Int {
        try SQLiteStore(path: database).database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM quarantine") ?? 0
        }
    }
}
