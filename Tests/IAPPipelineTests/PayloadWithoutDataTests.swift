import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Testing

/// Notifications whose payload carries the app's identity in `summary` (`RENEWAL_EXTENSION`/`SUMMARY`),
/// `externalPurchaseToken` (`EXTERNAL_PURCHASE_TOKEN`) or `appData` (`RESCIND_CONSENT`) instead of `data`, shaped
/// as Apple's own test payloads are (Documentation/Apple.md): the app and the environment are checked from that part,
/// a token's environment from its `SANDBOX` prefix, and the part's other fields are kept, not lost.
@Suite struct PayloadWithoutDataTests {
    let app = AppFixture()

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let type: String
        let subtype: String?
        let part: String
        /// The part's fields beside the app's identity.
        let fields: [String: JSONValue]
        /// Overrides of the identity: nil keeps the fixture's.
        var bundleId: String? = nil
        var environment: String? = nil
        /// The outcome ingest must record, and the quarantine reason when there is one.
        let outcome: String
        var reason: String? = nil
        /// The environment stored for the document.
        let storedEnvironment: String
        var testDescription: String { name }
    }

    /// An `externalPurchaseToken` part's own fields, as Apple's test payload has them.
    static func token(_ id: String) -> [String: JSONValue] {
        ["externalPurchaseId": .string(id), "tokenCreationDate": 1_698_148_950_000]
    }

    static let cases: [Case] = [
        Case(
            name: "a renewal-extension summary", type: "RENEWAL_EXTENSION", subtype: "SUMMARY", part: "summary",
            fields: [
                "requestIdentifier": "efb27071-45a4-4aca-9854-2a1e4c56aa4b", "productId": "com.example.monthly",
                "storefrontCountryCodes": ["USA", "FRA"], "succeededCount": 5, "failedCount": 2,
            ],
            outcome: "accepted", storedEnvironment: "Production"),
        Case(
            name: "an external purchase token", type: "EXTERNAL_PURCHASE_TOKEN", subtype: "UNREPORTED",
            part: "externalPurchaseToken",
            fields: token("b2158121-7af9-49d4-9561-1f588205523e"),
            outcome: "accepted", storedEnvironment: "Production"),
        Case(
            name: "a sandbox external purchase token", type: "EXTERNAL_PURCHASE_TOKEN", subtype: "UNREPORTED",
            part: "externalPurchaseToken",
            fields: token("SANDBOX_b2158121-7af9-49d4-9561-1f588205523e"),
            outcome: "other_environment", storedEnvironment: "Sandbox"),
        Case(
            name: "another app's external purchase token", type: "EXTERNAL_PURCHASE_TOKEN", subtype: "UNREPORTED",
            part: "externalPurchaseToken",
            fields: token("b2158121-7af9-49d4-9561-1f588205523e"),
            bundleId: "com.example.other", outcome: "quarantined", reason: "wrong_app", storedEnvironment: "Production"),
        Case(
            name: "a rescinded consent", type: "RESCIND_CONSENT", subtype: nil, part: "appData",
            fields: ["signedAppTransactionInfo": "signed_app_transaction_info_value"],
            environment: "Production", outcome: "accepted", storedEnvironment: "Production"),
        Case(
            name: "a rescinded consent in local testing", type: "RESCIND_CONSENT", subtype: nil, part: "appData",
            fields: ["signedAppTransactionInfo": "signed_app_transaction_info_value"],
            environment: "LocalTesting", outcome: "other_environment", storedEnvironment: "LocalTesting"),
    ]

    func payload(_ test: Case) -> JSONValue {
        var part: JSONValue = [
            "bundleId": .string(test.bundleId ?? app.bundleId), "appAppleId": .int(app.appAppleId),
        ]
        if test.part != "externalPurchaseToken" {
            part = part.setting("environment", .string(test.environment ?? app.environment))
        }
        for (key, value) in test.fields { part = part.setting(key, value) }
        var payload: JSONValue = [
            "notificationType": .string(test.type), "notificationUUID": "n-1", "version": "2.0",
            "signedDate": .int(Day.at(1)),
        ]
        payload = payload.setting(test.part, part)
        if let subtype = test.subtype { payload = payload.setting("subtype", .string(subtype)) }
        return payload
    }

    @Test(arguments: cases)
    func theAppAndEnvironmentComeFromThePartThePayloadCarries(_ test: Case) throws {
        let archive = try TestArchive()
        try archive.write("n.jsonl", lines: [AppFixture.body(try app.sign(payload(test)))])
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == (test.reason.map { [$0] } ?? []))
        #expect(try run.strings("SELECT outcome FROM documents") == [test.outcome])
        if test.reason == nil {
            #expect(try run.strings("SELECT environment FROM documents") == [test.storedEnvironment])
            #expect(try run.strings("SELECT notification_type FROM notifications") == [test.type])
            #expect(try run.count("SELECT count(*) FROM transactions") == 0)
        }
    }

    @Test func thePartsOtherFieldsAreKeptInTheStore() throws {
        let summary = try #require(Self.cases.first { $0.part == "summary" })
        let archive = try TestArchive()
        try archive.write("n.jsonl", lines: [AppFixture.body(try app.sign(payload(summary)))])
        let run = try IngestRun.ingest(archive)
        let kept = try #require(try run.strings("SELECT extra_fields FROM notifications").first)
        for field in ["requestIdentifier", "storefrontCountryCodes", "succeededCount", "failedCount"] {
            #expect(kept.contains(field), "\(field) is not kept: \(kept)")
        }
    }
}
