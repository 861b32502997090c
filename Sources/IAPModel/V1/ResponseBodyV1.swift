public import IAPFormats

/// A V1 notification body (deprecated by Apple in 2023, still in old archives). Unsigned JSON whose values
/// are mostly strings; read leniently. Pre-2021 bodies without `unified_receipt` carry top-level
/// `latest_receipt_info` / `latest_expired_receipt_info` instead, which are read the same way.
/// https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv1
public struct ResponseBodyV1: Sendable, Equatable {
    /// `notification_type` as sent.
    public let rawNotificationType: String
    /// Top-level `environment`: `PROD` or `Sandbox`.
    public let rawEnvironment: String?
    /// `bid`: the bundle ID.
    public let bundleId: String?
    /// Top-level `auto_renew_status` ("true"/"false").
    public let autoRenewStatus: Bool?
    /// Top-level `auto_renew_product_id`.
    public let autoRenewProductId: String?
    /// Top-level `auto_renew_status_change_date_ms`.
    public let autoRenewStatusChangeDate: Int64?
    /// Top-level `original_transaction_id`.
    public let originalTransactionId: String?
    /// Top-level `expiration_intent`.
    public let expirationIntent: Int64?
    /// Transactions of the receipt (`unified_receipt.latest_receipt_info` or the legacy top-level objects).
    public let transactions: [LatestReceiptInfo]
    /// Renewal states (`unified_receipt.pending_renewal_info`).
    public let pendingRenewalInfo: [PendingRenewalInfo]

    /// The typed type, nil when unknown.
    public var notificationType: NotificationTypeV1? { NotificationTypeV1(rawValue: rawNotificationType) }

    /// The body's own time when no envelope says when it was received (Documentation/Reports.md): the greatest of its
    /// purchase, original purchase, cancellation and auto-renew-status-change dates.
    public var impliedDocumentTime: Int64? {
        var times: [Int64] = transactions.flatMap {
            [$0.purchaseDate, $0.originalPurchaseDate, $0.cancellationDate].compactMap { $0 }
        }
        if let change = autoRenewStatusChangeDate { times.append(change) }
        return times.max()
    }

    /// Decodes a body.
    public init(body: JSONObject) throws(ModelDecodingError) {
        let reader = FieldReader(body)
        guard let type = try reader.lenientString("notification_type"), !type.isEmpty else {
            throw ModelDecodingError(keyPath: "notification_type", problem: "is missing")
        }
        rawNotificationType = type
        rawEnvironment = try reader.lenientString("environment")
        bundleId = try reader.lenientString("bid")
        autoRenewStatus = try reader.lenientBool("auto_renew_status")
        autoRenewProductId = try reader.lenientString("auto_renew_product_id")
        autoRenewStatusChangeDate = try reader.date("auto_renew_status_change_date_ms", lenient: true)
        originalTransactionId = try reader.lenientString("original_transaction_id")
        expirationIntent = try reader.lenientInt64("expiration_intent")

        var transactions: [LatestReceiptInfo] = []
        var renewals: [PendingRenewalInfo] = []
        if let receipt = try reader.object("unified_receipt") {
            for (index, item) in (try receipt.array("latest_receipt_info") ?? []).enumerated() {
                let path = "unified_receipt.latest_receipt_info[\(index)]"
                transactions.append(try LatestReceiptInfo(try FieldReader(value: item, path: path)))
            }
            for (index, item) in (try receipt.array("pending_renewal_info") ?? []).enumerated() {
                let path = "unified_receipt.pending_renewal_info[\(index)]"
                renewals.append(try PendingRenewalInfo(try FieldReader(value: item, path: path)))
            }
        }
        // Pre-2021 archives: the receipt objects sat at the top level (object or array).
        for key in ["latest_receipt_info", "latest_expired_receipt_info"] {
            guard let value = body[key] else { continue }
            let items: [JSONValue]
            if case .array(let array) = value { items = array } else { items = [value] }
            for (index, item) in items.enumerated() {
                if case .null = item { continue }
                transactions.append(try LatestReceiptInfo(try FieldReader(value: item, path: "\(key)[\(index)]")))
            }
        }
        self.transactions = transactions
        self.pendingRenewalInfo = renewals
    }
}
