import Foundation
import IAPFormats

/// Look Up Order ID for each order ID a support desk listed. An order already looked up is not asked again (its
/// refunds arrive by Get Refund History); the answer is saved with the `orderId` added, the shape `ingest` reads.
struct OrderLookupFetch: Sendable {
    static func cursor(_ orderId: String) -> String { "order_lookup." + orderId }

    let api: AppStoreServerAPI
    let writer: ArchivePageWriter
    let cursors: FetchCursors

    /// - Returns: true when the order was looked up now (false: it had been).
    func run(orderId: String, now: Int64) async throws -> Bool {
        if try cursors.value(Self.cursor(orderId)) != nil { return false }
        var page = try await api.lookUpOrder(orderId)
        guard page["status"]?.numberValue?.int64 != nil else {
            throw FetchError.badResponse(request: "Look Up Order ID \(orderId)", reason: "no status")
        }
        page.updateValue(.string(orderId), forKey: "orderId")
        let name = "order-lookups/\(ArchivePageWriter.safeName(orderId))/\(RefundHistoryFetch.contentName(page)).json"
        try writer.write(page, receivedAt: now, to: name)
        try cursors.set(Self.cursor(orderId), String(now))
        return true
    }
}
