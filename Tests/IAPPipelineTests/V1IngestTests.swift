import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Testing

/// V1 bodies: string-typed numbers, both boolean spellings, PROD/Sandbox, identity by canonical body.
@Suite struct V1IngestTests {
    let app = AppFixture()

    func body(
        type: String = "DID_RENEW", environment: String = "PROD", autoRenew: JSONValue = "true",
        trial: JSONValue = "false",
        retry: JSONValue = "0", cancellation: JSONValue? = nil, extraKey: String? = nil,
        pendingRenewalInfo: Bool = true, expirationIntent: JSONValue? = nil
    ) -> JSONValue {
        var receipt: JSONValue = [
            "transaction_id": "1000", "original_transaction_id": "1000", "product_id": "com.example.monthly",
            "quantity": "1",
            "purchase_date_ms": .string(String(Day.at(1))), "original_purchase_date_ms": .string(String(Day.at(1))),
            "expires_date_ms": .string(String(Day.at(31))), "is_trial_period": trial,
            "in_app_ownership_type": "PURCHASED",
            "purchase_date": "2023-10-02 12:00:00 Etc/GMT", "app_account_token": "AABBCCDD-0000-4000-8000-000000000001",
        ]
        if let cancellation { receipt = receipt.setting("cancellation_date_ms", cancellation) }
        var unifiedReceipt: JSONValue = [
            "status": 0, "environment": "Production", "latest_receipt": "bXVjaA==", "latest_receipt_info": [receipt],
        ]
        if pendingRenewalInfo {
            unifiedReceipt = unifiedReceipt.setting(
                "pending_renewal_info",
                [
                    [
                        "original_transaction_id": "1000", "product_id": "com.example.monthly",
                        "auto_renew_status": "1", "is_in_billing_retry_period": retry,
                    ]
                ])
        }
        var value: JSONValue = [
            "notification_type": .string(type), "environment": .string(environment), "bid": .string(app.bundleId),
            "auto_renew_status": autoRenew, "original_transaction_id": "1000", "unified_receipt": unifiedReceipt,
        ]
        if let expirationIntent { value = value.setting("expiration_intent", expirationIntent) }
        if let extraKey { value = value.setting(extraKey, "x") }
        return value
    }

    @Test(arguments: [
        (JSONValue.string("true"), 1), ("1", 1), (true, 1), ("false", 0), ("0", 0), (false, 0), (.int(1), 1),
        (.int(0), 0),
    ])
    func booleanSpellings(_ spelling: JSONValue, _ expected: Int) throws {
        let archive = try TestArchive()
        try archive.write("v1.jsonl", lines: [body(trial: spelling, retry: spelling).text])
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == [])
        #expect(try run.count("SELECT is_trial_period FROM transactions") == expected)
        #expect(try run.count("SELECT is_in_billing_retry_period FROM renewal_infos") == expected)
    }

    @Test func numbersAsStringsAndProdEnvironment() throws {
        let archive = try TestArchive()
        try archive.write("v1.jsonl", lines: [body(cancellation: .string(String(Day.at(4)))).text])
        let run = try IngestRun.ingest(archive)
        #expect(
            try run.count("SELECT count(*) FROM documents WHERE outcome = 'accepted' AND environment = 'Production'")
                == 1)
        let revoked: Int64? = try run.value("SELECT revocation_date FROM transactions")
        #expect(revoked == Day.at(4))
        let token: String? = try run.value("SELECT app_account_token FROM transactions")
        #expect(token == "aabbccdd-0000-4000-8000-000000000001")
        // No envelope: the document time is the body's greatest date (the cancellation).
        let time: Int64? = try run.value("SELECT document_time FROM notifications")
        #expect(time == Day.at(4))
    }

    @Test func aBodyWithoutPendingRenewalInfoTakesTheRenewalStateFromItsTopLevel() throws {
        // Older V1 bodies carry the subscription's renewal state only at the top level.
        let archive = try TestArchive()
        try archive.write(
            "v1.jsonl",
            lines: [
                body(
                    type: "DID_CHANGE_RENEWAL_STATUS", autoRenew: "false", pendingRenewalInfo: false,
                    expirationIntent: "1"
                ).text
            ])
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == [])
        #expect(
            try run.count(
                "SELECT count(*) FROM renewal_infos WHERE original_transaction_id = '1000' AND auto_renew_status = 0"
                    + " AND expiration_intent = 1") == 1)
        // With pending_renewal_info for the same subscription, that entry is the one row (the top level fills in
        // only what the entry lacks).
        let other = try TestArchive()
        try other.write("v1.jsonl", lines: [body(autoRenew: "false", expirationIntent: "1").text])
        let both = try IngestRun.ingest(other)
        #expect(try both.count("SELECT count(*) FROM renewal_infos") == 1)
        #expect(try both.count("SELECT auto_renew_status FROM renewal_infos") == 1)
        #expect(try both.count("SELECT expiration_intent FROM renewal_infos") == 1)
    }

    /// Pre-2021 bodies carried the receipt at the top level, one object (`latest_receipt_info`, or
    /// `latest_expired_receipt_info` once it lapsed) whose `expires_date` is itself in milliseconds.
    @Test(arguments: ["latest_receipt_info", "latest_expired_receipt_info"])
    func aPre2021BodyWithItsReceiptAtTheTopIsRead(_ key: String) throws {
        let receipt: JSONValue = [
            "transaction_id": "1000", "original_transaction_id": "1000", "product_id": "com.example.monthly",
            "quantity": "1", "purchase_date_ms": .string(String(Day.at(1))),
            "original_purchase_date_ms": .string(String(Day.at(1))), "expires_date": .string(String(Day.at(31))),
            "expires_date_formatted": "2023-11-01 12:00:00 Etc/GMT", "is_trial_period": "false",
            "bid": .string(app.bundleId), "unique_vendor_identifier": "6A1F3B0C-0000-4000-8000-000000000001",
        ]
        var body: JSONValue = [
            "notification_type": "RENEWAL", "environment": "PROD", "bid": .string(app.bundleId),
            "auto_renew_status": "true", "original_transaction_id": "1000", "latest_receipt": "bXVjaA==",
        ]
        body = body.setting(key, receipt)
        let archive = try TestArchive()
        try archive.write("v1.jsonl", lines: [body.text])
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == [])
        let expires: Int64? = try run.value("SELECT expires_date FROM transactions WHERE transaction_id = '1000'")
        #expect(expires == Day.at(31))
        #expect(try run.count("SELECT count(*) FROM documents WHERE outcome = 'accepted'") == 1)
    }

    @Test func identityIsTheCanonicalBodySoReformattedCopiesAreDuplicates() throws {
        let archive = try TestArchive()
        let compact = body().text
        let spaced = compact.replacingOccurrences(of: ",", with: ", ")
        try archive.write("a.jsonl", lines: [compact])
        try archive.write("b.jsonl", lines: [spaced])
        let run = try IngestRun.ingest(archive)
        #expect(try run.count("SELECT count(*) FROM notifications") == 1)
        #expect(try run.count("SELECT count(*) FROM documents WHERE outcome = 'accepted'") == 2)
    }

    @Test func sandboxIsOtherEnvironmentAndUnknownTypesAreKept() throws {
        let archive = try TestArchive()
        try archive.write(
            "v1.jsonl",
            lines: [body(environment: "Sandbox").text, body(type: "SOMETHING_NEW", extraKey: "new_field").text])
        let run = try IngestRun.ingest(archive)
        #expect(try run.count("SELECT count(*) FROM documents WHERE outcome = 'other_environment'") == 1)
        #expect(try run.count("SELECT count(*) FROM notifications WHERE notification_type = 'SOMETHING_NEW'") == 1)
    }

    @Test func theSharedSecretAuthenticatesV1BodiesAndIsNeverStored() throws {
        let archive = try TestArchive()
        try archive.write(
            "v1.jsonl",
            lines: [
                body().setting("password", "s3cret").text,
                body(type: "REFUND").setting("password", "guess").text,
                body(type: "CANCEL").text,
            ])
        let run = try IngestRun.ingest(archive, v1SharedSecret: "s3cret")
        #expect(try run.reasons() == ["v1_secret_mismatch", "v1_secret_mismatch"])
        #expect(try run.count("SELECT count(*) FROM notifications") == 1)
        #expect(try run.count("SELECT count(*) FROM notifications WHERE notification_type = 'CANCEL'") == 0)
        for file in [archive.database, archive.database + "-wal"] where FileManager.default.fileExists(atPath: file) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data("s3cret".utf8)) == nil, "\(file) holds the shared secret")
        }
    }
}
