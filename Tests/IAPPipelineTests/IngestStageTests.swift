import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Testing

/// How ingest cuts its writes (IngestStage.Options): by documents and by store rows, whichever comes first. Where
/// the cuts fall changes how much is held at once, never what is stored.
@Suite struct IngestStageTests {
    let app = AppFixture()

    /// A V1 notification carrying its subscriber's history: `receipts` transactions, each one a transaction version.
    func v1Body(subscriber: Int, receipts: Int) -> String {
        let original = String(5_000 + subscriber * 100)
        let history: [JSONValue] = (0..<receipts).map { month in
            [
                "transaction_id": .string(String(5_000 + subscriber * 100 + month)),
                "original_transaction_id": .string(original),
                "product_id": "com.example.monthly", "quantity": "1",
                "purchase_date_ms": .string(String(Day.at(1 + 30 * month))),
                "original_purchase_date_ms": .string(String(Day.at(1))),
                "expires_date_ms": .string(String(Day.at(31 + 30 * month))), "is_trial_period": "false",
                "in_app_ownership_type": "PURCHASED",
            ]
        }
        let value: JSONValue = [
            "notification_type": "DID_RENEW", "environment": "PROD", "bid": .string(app.bundleId),
            "auto_renew_status": "true", "original_transaction_id": .string(original),
            "unified_receipt": [
                "status": 0, "environment": "Production", "latest_receipt": "bXVjaA==",
                "latest_receipt_info": .array(history),
                "pending_renewal_info": [
                    [
                        "original_transaction_id": .string(original), "product_id": "com.example.monthly",
                        "auto_renew_status": "1",
                    ]
                ],
            ],
        ]
        return value.text
    }

    @Test func writesCutByRowsStoreWhatOneWriteStores() throws {
        // Given two files of V1 notifications whose histories make many more rows than documents
        func archive() throws -> TestArchive {
            let archive = try TestArchive()
            try archive.write("a.jsonl", lines: (0..<6).map { v1Body(subscriber: $0, receipts: 1 + $0 % 4) })
            try archive.write("b.jsonl", lines: (6..<10).map { v1Body(subscriber: $0, receipts: 5) })
            return archive
        }
        // When one run writes everything at once, and another reads two lines at a time and cuts a write after every
        // few rows, so that each file's rows, its start and its completion fall in different writes
        let whole = try IngestRun.ingest(try archive(), verify: false)
        let cut = try IngestRun.ingest(try archive(), verify: false, batchRows: 3, chunkSize: 2)
        // Then both hold the same documents, transactions, versions and completed files
        let tables = [
            "SELECT line || ':' || outcome || ':' || coalesce(document_id, '') FROM documents ORDER BY line, document_id",
            "SELECT transaction_id || ':' || version_count FROM transactions ORDER BY transaction_id",
            "SELECT transaction_id || ':' || document_id FROM transaction_versions ORDER BY transaction_id, document_id",
            "SELECT file_sha256 || ':' || state FROM source_files ORDER BY file_sha256",
        ]
        for sql in tables {
            let expected = try whole.strings(sql)
            #expect(try cut.strings(sql) == expected, "\(sql)")
            #expect(!expected.isEmpty)
        }
        #expect(try whole.count("SELECT count(*) FROM transaction_versions") == 33)
        #expect(try cut.count("SELECT count(*) FROM source_files WHERE state = 'complete'") == 2)
    }
}
