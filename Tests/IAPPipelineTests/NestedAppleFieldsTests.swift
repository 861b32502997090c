import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Testing

/// Apple's newest transaction and renewal fields are nested objects (`advancedCommerceInfo`, `commitmentInfo`),
/// shaped as in Apple's full test payloads: a notification carrying them is accepted, its figures are those of the
/// fields iaplens reads, and the objects are kept whole in the store.
@Suite struct NestedAppleFieldsTests {
    let app = AppFixture()

    static let advancedCommerceInfo: JSONValue = [
        "descriptors": ["description": "description", "displayName": "display name"],
        "estimatedTax": 10_990, "period": "P1M", "requestReferenceId": "request-reference-id",
        "taxCode": "C003-00-1", "taxExclusivePrice": 9_990, "taxRate": "0.15",
        "items": [
            [
                "SKU": "sku", "description": "description", "displayName": "display name", "price": 9_990,
                "offer": ["period": "P1M", "periodCount": 3, "price": 4_990, "reason": "ACQUISITION"],
                "refunds": [
                    [
                        "refundAmount": 2_990, "refundDate": 1_698_148_900_000, "refundReason": "UNINTENDED_PURCHASE",
                        "refundType": "PRORATED",
                    ]
                ],
                "revocationDate": 1_698_148_900_000,
            ]
        ],
    ]

    @Test func aTransactionAndRenewalWithNestedFieldsAreAcceptedAndKeptWhole() throws {
        let transaction = app.transaction(
            id: "t1", purchase: Day.at(1), expires: Day.at(31), signedDate: Day.at(1),
            extra: [
                "advancedCommerceInfo": Self.advancedCommerceInfo, "billingPlanType": "MONTHLY",
                "commitmentInfo": ["billingPeriodCount": 12, "commitmentPrice": 99_990],
            ])
        let renewal = app.renewal(
            original: "t1", signedDate: Day.at(1),
            extra: ["advancedCommerceInfo": ["consistencyToken": "token", "period": "P1M"]])
        let archive = try TestArchive()
        try archive.write(
            "n.jsonl",
            lines: [
                try app.notification(
                    type: "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n-1", signedDate: Day.at(1),
                    transaction: transaction, renewal: renewal)
            ])
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == [])
        #expect(try run.count("SELECT count(*) FROM transactions WHERE transaction_id = 't1' AND price = 9990") == 1)
        let kept = try #require(try run.strings("SELECT extra_fields FROM transaction_versions").first)
        for field in ["advancedCommerceInfo", "refundReason", "billingPlanType", "commitmentInfo"] {
            #expect(kept.contains(field), "\(field) is not kept: \(kept)")
        }
        let renewalKept = try #require(try run.strings("SELECT extra_fields FROM renewal_infos").first)
        #expect(renewalKept.contains("consistencyToken"), "\(renewalKept)")
    }
}
