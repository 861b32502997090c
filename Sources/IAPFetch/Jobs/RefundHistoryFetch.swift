import Foundation
import IAPFormats

/// Get Refund History for customers, each from the `revision` its last complete page ended with, so a later fetch
/// asks only for refunds that are new. Pages are named by their content: the same page is never saved twice, a page
/// with anything new always is. A page without refunds is not saved (there is nothing in it to ingest).
struct RefundHistoryFetch: Sendable {
    static func cursor(_ transactionId: String) -> String { "refund_history." + transactionId }

    let api: AppStoreServerAPI
    let writer: ArchivePageWriter
    let cursors: FetchCursors

    /// One customer, all new pages. - Returns: pages written.
    func run(customer transactionId: String) async throws -> Int {
        var revision = try cursors.value(Self.cursor(transactionId))
        var written = 0
        while true {
            let page = try await api.refundHistory(transactionId: transactionId, revision: revision)
            guard case .array(let signed)? = page["signedTransactions"] else {
                throw FetchError.badResponse(request: "Get Refund History for \(transactionId)", reason: "no signedTransactions array")
            }
            if !signed.isEmpty {
                let name = "refund-history/\(ArchivePageWriter.safeName(transactionId))/\(Self.contentName(page)).json"
                if try writer.write(page, receivedAt: Int64(Date().timeIntervalSince1970 * 1000), to: name) { written += 1 }
            }
            let next = page["revision"]?.stringValue
            if let next, next != revision {
                revision = next
                try cursors.set(Self.cursor(transactionId), next)
            }
            guard page["hasMore"]?.boolValue == true, next != nil else { return written }
        }
    }

    /// The first 16 hex digits of the page's SHA-256 (canonical JSON): the same page always gets the same name.
    static func contentName(_ page: JSONObject) -> String {
        String(MemoryDigest.sha256Hex(JSONValue.object(page).canonicalJSON()).prefix(16))
    }
}
