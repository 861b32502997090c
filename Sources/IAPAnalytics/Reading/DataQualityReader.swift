import IAPStore

/// Reads the store-wide data-quality figures: documents and quarantine as ``DocumentFigures`` defines them (the
/// same figures `status` shows), other environments against the configured one, unpriced and unlinked counts from
/// the `data_quality` mart.
enum DataQualityReader {
    static func read(in connection: any StoreConnection) throws -> DataQualitySummary {
        let collation = connection.dialect.binaryCollation
        let environment = try connection.text("select environment from analysis_parameters") ?? ""
        let figures = try DocumentFigures.read(connection)
        let quarantined = figures.quarantinedByReason.map { ReasonCount(label: $0.label, count: $0.count) }
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
        let models = try connection.row("select unpriced_transactions, unlinked_transactions from data_quality")
        let catalogRows = try connection.integer("select count(*) from ref_products") ?? 0
        let accountRows = try connection.integer("select count(*) from ref_accounts") ?? 0
        func count(_ row: SQLRow?, _ name: String) -> Int { Int(row?[name].integer ?? 0) }
        return DataQualitySummary(
            filesRead: figures.filesRead, documentsRead: figures.documentsRead,
            accepted: figures.accepted, duplicates: figures.duplicates,
            quarantinedByReason: quarantined, otherEnvironments: otherEnvironments,
            testNotifications: figures.testNotifications,
            unverifiedDocuments: figures.unverified,
            unpricedTransactions: count(models, "unpriced_transactions"),
            unlinkedTransactions: count(models, "unlinked_transactions"),
            productCatalogRows: catalogRows > 0 ? Int(catalogRows) : nil,
            accountMappingRows: accountRows > 0 ? Int(accountRows) : nil)
    }
}
