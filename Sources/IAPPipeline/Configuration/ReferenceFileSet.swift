import Foundation
import IAPFormats
import IAPModel
import IAPStore

/// The reference files a stage was given (`--products`, `--accounts`, `--reviews`), read whole. `run` reads them
/// before it opens the store, so a mistyped path or a bad header stops it at once, not after a long ingest; each
/// analysis then loads them into the store, replacing what an earlier run loaded (Documentation/Inputs.md,
/// "Reference files").
struct ReferenceFileSet: Sendable {
    var products: [ProductCatalogRow]?
    var reviews: [AccountReviewRow]?
    var accounts: [AccountMappingRow]?

    /// Reads every reference file the configuration names.
    /// - Throws: ``PipelineError/invalidReferenceFile(_:)`` naming the file, the line and what is wrong.
    static func read(_ configuration: PipelineConfiguration) throws(PipelineError) -> ReferenceFileSet {
        do throws(ReferenceFileError) {
            var set = ReferenceFileSet()
            if let path = configuration.productsPath { set.products = try ReferenceFiles.readProducts(at: path) }
            if let path = configuration.reviewsPath {
                set.reviews = try ReferenceFiles.readReviews(at: path, now: Int64(Date().timeIntervalSince1970 * 1000))
            }
            if let path = configuration.accountsPath { set.accounts = try ReferenceFiles.readAccounts(at: path) }
            return set
        } catch {
            throw .invalidReferenceFile(error)
        }
    }

    /// Replaces the store's copy of each file given; a file not given leaves the store's copy as it is.
    func load(into store: any StoreEngine) throws {
        let writer = ReferenceWriter(store: store)
        if let products {
            try writer.replaceProducts(
                products.map { row in
                    ProductReferenceRow(
                        line: row.line, productId: row.productId,
                        productType: ProductType(anySpelling: row.type)?.reportName ?? row.type, currency: row.currency,
                        priceMilli: row.priceMilli)
                })
        }
        if let reviews {
            try writer.replaceReviews(
                reviews.map {
                    AccountReviewReference(
                        line: $0.line, accountId: $0.accountId, decision: $0.decision.rawValue,
                        reviewedAtMs: $0.reviewedAt,
                        reviewer: $0.reviewer, note: $0.note)
                })
        }
        if let accounts {
            try writer.replaceAccounts(
                accounts.map {
                    AccountReferenceRow(line: $0.line, appAccountToken: $0.appAccountToken, accountId: $0.accountId)
                })
        }
    }
}
