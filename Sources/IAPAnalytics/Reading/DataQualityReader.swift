import IAPStore

/// Reads the store-wide data-quality figures: documents and quarantine from ingest's tables, unpriced and
/// unlinked counts from the `data_quality` mart.
enum DataQualityReader {
    static func read(in connection: any StoreConnection) throws -> DataQualitySummary {
        let collation = connection.dialect.binaryCollation
        let environment = try connection.text("select environment from analysis_parameters") ?? ""
        // Duplicates = accepted documents - distinct accepted document IDs. `count(distinct ...)` over the
        // table sorted every document ID through a temp b-tree (3.4 s at 1M documents on SQLite, mostly temp-file
        // I/O). Instead: the distinct IDs of all stored documents come from walking the document_id index
        // alone, minus the IDs that only non-accepted documents carry (few: other environments, TEST).
        let documents = try connection.row(
            """
            select
                count(*) as documents_read,
                count(*) filter (where outcome = 'accepted') as accepted,
                count(*) filter (where outcome = 'accepted')
                    - (
                        select count(*) from (
                            select document_id from documents
                            where document_id is not null
                            group by document_id
                        ) as stored_ids
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
                count(*) filter (where outcome = 'test_notification') as test_notifications,
                count(*) filter (where outcome = 'accepted' and is_verified = 0) as unverified
            from documents
            """)
        let quarantined = try connection.rows(
            "select reason, count(*) as documents from quarantine group by reason order by reason collate \(collation)"
        ).map { ReasonCount(label: $0["reason"].text ?? "", count: Int($0["documents"].integer ?? 0)) }
        // Other environments: documents stored but not counted because of their environment.
        let otherEnvironments = try connection.rows(
            """
            select coalesce(environment, 'unknown') as environment, count(*) as documents
            from documents
            where outcome in ('accepted', 'other_environment') and coalesce(environment, '') <> ?
            group by 1 order by coalesce(environment, 'unknown') collate \(collation)
            """,
            [.text(environment)]
        ).map { ReasonCount(label: $0["environment"].text ?? "", count: Int($0["documents"].integer ?? 0)) }
        let filesRead = try connection.integer("select count(*) from source_files where state = 'complete'") ?? 0
        let models = try connection.row("select unpriced_transactions, unlinked_transactions from data_quality")
        let catalogRows = try connection.integer("select count(*) from ref_products") ?? 0
        let accountRows = try connection.integer("select count(*) from ref_accounts") ?? 0
        func count(_ row: SQLRow?, _ name: String) -> Int { Int(row?[name].integer ?? 0) }
        return DataQualitySummary(
            filesRead: Int(filesRead), documentsRead: count(documents, "documents_read"),
            accepted: count(documents, "accepted"), duplicates: count(documents, "duplicates"),
            quarantinedByReason: quarantined, otherEnvironments: otherEnvironments,
            testNotifications: count(documents, "test_notifications"),
            unverifiedDocuments: count(documents, "unverified"),
            unpricedTransactions: count(models, "unpriced_transactions"),
            unlinkedTransactions: count(models, "unlinked_transactions"),
            productCatalogRows: catalogRows > 0 ? Int(catalogRows) : nil,
            accountMappingRows: accountRows > 0 ? Int(accountRows) : nil)
    }
}
