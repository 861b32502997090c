import GRDB

/// Reads the store-wide data-quality figures: documents and quarantine from ingest's tables, unpriced and
/// unlinked counts from the `data_quality` mart.
enum DataQualityReader {
    static func read(in db: Database) throws -> DataQualitySummary {
        let environment = try String.fetchOne(db, sql: "select environment from analysis_parameters") ?? ""
        // Duplicates = accepted documents - distinct accepted document IDs. `count(distinct ...)` over the
        // table sorted every document ID through a temp b-tree (3.4 s at 1M documents, mostly temp-file
        // I/O). Instead: the distinct IDs of all stored documents come from walking the document_id index
        // alone, minus the IDs that only non-accepted documents carry (few: other environments, TEST).
        let documents = try Row.fetchOne(
            db,
            sql: """
                select
                    count(*) as documents_read,
                    coalesce(sum(outcome = 'accepted'), 0) as accepted,
                    coalesce(sum(outcome = 'accepted'), 0)
                        - (
                            select count(*) from (
                                select document_id from documents
                                where document_id is not null
                                group by document_id
                            )
                        )
                        + (
                            select count(distinct others.document_id) from documents as others
                            where others.outcome <> 'accepted'
                                and others.document_id is not null
                                and not exists (
                                    select 1 from documents as accepted
                                    where accepted.document_id = others.document_id
                                        and accepted.outcome = 'accepted'
                                )
                        ) as duplicates,
                    coalesce(sum(outcome = 'test_notification'), 0) as test_notifications,
                    coalesce(sum(outcome = 'accepted' and is_verified = 0), 0) as unverified
                from documents
                """)
        let quarantined = try Row.fetchAll(
            db, sql: "select reason, count(*) as documents from quarantine group by reason order by reason collate binary"
        ).map { ReasonCount(label: $0["reason"], count: $0["documents"]) }
        // Other environments: documents stored but not counted because of their environment.
        let otherEnvironments = try Row.fetchAll(
            db,
            sql: """
                select coalesce(environment, 'unknown') as environment, count(*) as documents
                from documents
                where outcome in ('accepted', 'other_environment') and coalesce(environment, '') <> ?
                group by 1 order by 1 collate binary
                """,
            arguments: [environment]
        ).map { ReasonCount(label: $0["environment"], count: $0["documents"]) }
        let filesRead = try Int.fetchOne(db, sql: "select count(*) from source_files where state = 'complete'") ?? 0
        let models = try Row.fetchOne(db, sql: "select unpriced_transactions, unlinked_transactions from data_quality")
        let catalogRows = try Int.fetchOne(db, sql: "select count(*) from ref_products") ?? 0
        let accountRows = try Int.fetchOne(db, sql: "select count(*) from ref_accounts") ?? 0
        return DataQualitySummary(
            filesRead: filesRead, documentsRead: documents?["documents_read"] ?? 0,
            accepted: documents?["accepted"] ?? 0, duplicates: documents?["duplicates"] ?? 0,
            quarantinedByReason: quarantined, otherEnvironments: otherEnvironments,
            testNotifications: documents?["test_notifications"] ?? 0,
            unverifiedDocuments: documents?["unverified"] ?? 0,
            unpricedTransactions: models?["unpriced_transactions"] ?? 0,
            unlinkedTransactions: models?["unlinked_transactions"] ?? 0,
            productCatalogRows: catalogRows > 0 ? catalogRows : nil,
            accountMappingRows: accountRows > 0 ? accountRows : nil)
    }
}
