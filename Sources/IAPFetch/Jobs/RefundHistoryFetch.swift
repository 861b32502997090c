import Foundation
import IAPFormats

/// Get Refund History for customers, each from the `revision` its last complete page ended with, so a later fetch
/// asks only for refunds that are new. Pages are named by their content: the same page is never saved twice, a page
/// with anything new always is. A page without refunds is not saved (there is nothing in it to ingest).
struct RefundHistoryFetch: Sendable {
    static func cursor(_ transactionId: String) -> String { "refund_history." + transactionId }
    /// Set when Apple answered that it does not know the transaction (404, error 4040010): not asked again.
    static func unknownCursor(_ transactionId: String) -> String { "refund_history_unknown." + transactionId }

    let api: AppStoreServerAPI
    let writer: ArchivePageWriter
    let cursors: FetchCursors
    var limits = FetchLimits()
    var deadline = FetchLimits().deadline(from: .now)

    /// What one customer's fetch got.
    struct Result: Sendable {
        var pages = 0
        /// Apple does not know the transaction (another environment's, another app's): recorded, and the fetch
        /// goes on with the other customers.
        var isUnknown = false
    }

    /// One customer, all new pages.
    func run(customer transactionId: String) async throws -> Result {
        do {
            return Result(pages: try await pages(of: transactionId))
        } catch FetchError.rejected(let status, _, let body) where status == 404 && body.contains("4040010") {
            try cursors.set(Self.unknownCursor(transactionId), "4040010")
            return Result(isUnknown: true)
        }
    }

    private func pages(of transactionId: String) async throws -> Int {
        var revision = try cursors.value(Self.cursor(transactionId))
        var written = 0
        var asked = 0
        while true {
            try deadline.check()
            let askedWith = revision
            asked += 1
            let page = try await api.refundHistory(transactionId: transactionId, revision: revision)
            guard case .array(let signed)? = page["signedTransactions"] else {
                throw FetchError.badResponse(
                    request: "Get Refund History for \(transactionId)", reason: "no signedTransactions array")
            }
            if !signed.isEmpty {
                let name = "refund-history/\(ArchivePageWriter.safeName(transactionId))/\(Self.contentName(page)).json"
                if try writer.write(page, receivedAt: Int64(Date().timeIntervalSince1970 * 1000), to: name) {
                    written += 1
                }
            }
            let next = page["revision"]?.stringValue
            if let next, next != revision {
                revision = next
                try cursors.set(Self.cursor(transactionId), next)
            }
            guard page["hasMore"]?.boolValue == true, next != nil else { return written }
            let request = "Get Refund History for \(transactionId)"
            if next == askedWith {
                throw FetchError.endlessPagination(
                    request: request, reason: "hasMore is true but the revision is the one it was asked with")
            }
            if asked >= limits.pagesPerCustomer {
                throw FetchError.endlessPagination(
                    request: request,
                    reason: "more than \(limits.pagesPerCustomer) pages for one customer (FetchLimits)")
            }
        }
    }

    /// The first 16 hex digits of the page's SHA-256 (canonical JSON): the same page always gets the same name.
    static func contentName(_ page: JSONObject) -> String {
        String(MemoryDigest.sha256Hex(JSONValue.object(page).canonicalJSON()).prefix(16))
    }
}
