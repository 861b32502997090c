/// A recognised document: its body and, for an archive envelope, the time it was received.
public struct RecognisedDocument: Sendable, Equatable {
    /// `receivedAt` of the envelope in milliseconds since the epoch; `nil` for a bare body.
    public let receivedAtMillis: Int64?
    /// The document's body.
    public let body: DocumentBody

    /// Creates a recognised document.
    public init(receivedAtMillis: Int64?, body: DocumentBody) {
        self.receivedAtMillis = receivedAtMillis
        self.body = body
    }
}

/// The kinds of documents iaplens reads, recognised by their shape (Documentation/Inputs.md "Documents").
public enum DocumentBody: Sendable, Equatable {
    /// `{"signedPayload": "<JWS>"}`: a V2 notification as Apple POSTs it (other keys, e.g. `sendAttempts`, ignored).
    case v2Notification(signedPayload: String)
    /// A page of Get Notification History: one entry per `notificationHistory[]` item (its `signedPayload`).
    case notificationHistoryPage(entries: [PageEntry], paginationToken: String?, hasMore: Bool?)
    /// A V1 notification body (plain JSON, not signed), kept whole.
    case v1Notification(body: JSONObject)
    /// A page of Get Refund History (V2, or the older V1 lookup without `revision`/`hasMore`).
    case refundHistoryPage(entries: [PageEntry], revision: String?, hasMore: Bool?)
    /// A page of Get Transaction History: the same `signedTransactions` as a refund page, but every transaction of
    /// a customer, with the app's `bundleId`, `appAppleId` and `environment` beside them.
    case transactionHistoryPage(entries: [PageEntry], revision: String?, hasMore: Bool?)
    /// A Look Up Order ID result; `orderId` (added by whoever saved it) is kept as text even when written as a number.
    case orderLookup(orderId: String?, status: Int, entries: [PageEntry])
}

/// One entry of a page: a JWS to verify, or why the entry is unusable (the rest of the page is still read).
public enum PageEntry: Sendable, Equatable {
    /// The entry's JWS compact serialization.
    case jws(String)
    /// The entry is not usable; the sentence says why (e.g. "entry 3 of notificationHistory has no signedPayload").
    case malformed(String)
}
