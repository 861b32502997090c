import IAPFormats
import IAPTestSigning

/// Turns events into Apple-shaped documents: signed V2 notifications and V1 bodies.
struct DocumentRenderer: Sendable {
    let world: SimWorld
    let signer: JWSSigner

    /// A signed V2 notification and the pieces needed to tamper with it.
    struct SignedNotification {
        let jws: String
        /// The outer payload, for building an altered copy.
        let payload: JSONOutput
    }

    /// Signs a V2 notification for `event`: transaction and renewal info first, then the outer payload,
    /// all with the notification's `signedDate`.
    func v2Notification(
        _ event: SimEvent, uuid: String, signer override: JWSSigner? = nil, bundleId: String? = nil,
        appAppleId: Int64? = nil
    ) throws -> SignedNotification {
        let signer = override ?? self.signer
        let signed = event.time
        let environment = event.transaction.environment
        var data = JSONObjectBuilder()
        // Apple leaves appAppleId out in the sandbox.
        if environment == "Production" { data.add("appAppleId", appAppleId ?? world.appAppleId) }
        data.add("bundleId", bundleId ?? world.bundleId)
        data.add("bundleVersion", bundleVersion(at: signed))
        data.add("environment", environment)
        if event.v2Type != "TEST" {
            data.add(
                "signedTransactionInfo", try signer.sign(payload: event.transaction.v2Payload(signedDate: signed).bytes)
            )
            if event.transaction.product.type == .autoRenewable, let renewal = event.renewal {
                data.add("signedRenewalInfo", try signer.sign(payload: renewal.v2Payload(signedDate: signed).bytes))
            }
            data.add("status", event.status)
            data.add("consumptionRequestReason", event.consumptionRequestReason)
        }
        var o = JSONObjectBuilder()
        o.add("notificationType", event.v2Type)
        o.add("subtype", event.v2Subtype)
        o.add("notificationUUID", uuid)
        o.add("data", data.value)
        o.add("version", "2.0")
        o.add("signedDate", signed)
        let payload = o.value
        return SignedNotification(jws: try signer.sign(payload: payload.bytes), payload: payload)
    }

    /// A V2 body line, `{"signedPayload":"…"}`.
    static func v2Body(_ jws: String) -> JSONOutput {
        .object([("signedPayload", .string(jws))])
    }

    /// A V1 body for `event` (everything a string, as V1 sent it), with its document time.
    func v1Body(_ event: SimEvent, environment: String = "PROD", bid: String? = nil, random r: inout SimRandom) -> (
        JSONOutput, Int64
    ) {
        let tx = event.transaction
        let receipt = event.receipt.isEmpty ? [tx] : event.receipt
        // Apple's spellings differ by field; a few archives also normalised is_trial_period to "1"/"0".
        let numericBooleans = r.chance(0.05)
        var o = JSONObjectBuilder()
        o.add("notification_type", event.v1Type)
        o.add("environment", environment)
        o.add("bid", bid ?? world.bundleId)
        o.add("bvrs", bundleVersion(at: event.time))
        var docTime: Int64 = 0
        for entry in receipt {
            docTime = max(docTime, entry.purchaseDate, entry.originalPurchaseDate, entry.revocationDate ?? 0)
        }
        if tx.product.type == .autoRenewable, let renewal = event.renewal {
            o.add("auto_renew_status", renewal.autoRenewOn ? "true" : "false")
            o.add("auto_renew_product_id", renewal.autoRenewProductId)
            if let change = event.autoRenewChangeDate {
                SimTransaction.addDate(&o, "auto_renew_status_change_date", change)
                docTime = max(docTime, change)
            }
            if let intent = renewal.expirationIntent, !renewal.inBillingRetry {
                o.add("expiration_intent", .int(Int64(intent)))
            }
        }
        o.add("original_transaction_id", tx.originalTransactionId)
        var unified = JSONObjectBuilder()
        unified.add("status", .int(0))
        unified.add("environment", environment == "PROD" ? "Production" : "Sandbox")
        unified.add(
            "latest_receipt",
            Base64Encoding.standard(Array("MIIT-simulated-receipt:\(tx.originalTransactionId):\(receipt.count)".utf8)))
        unified.add(
            "latest_receipt_info",
            .array(
                receipt.map {
                    $0.v1ReceiptInfo(
                        trueSpelling: numericBooleans ? "1" : "true", falseSpelling: numericBooleans ? "0" : "false")
                }))
        var pending: [JSONOutput] = []
        if tx.product.type == .autoRenewable, let renewal = event.renewal {
            pending.append(renewal.v1PendingRenewalInfo())
        }
        unified.add("pending_renewal_info", .array(pending))
        o.add("unified_receipt", unified.value)
        return (o.value, docTime)
    }

    /// Wraps a body in an archive envelope received `delay` ms after `time`, as ms or ISO 8601 text.
    static func envelope(_ body: JSONOutput, receivedAt: Int64, iso: Bool) -> JSONOutput {
        .object([("receivedAt", iso ? .string(SimTime.iso8601(receivedAt)) : .int(receivedAt)), ("body", body)])
    }

    /// The app build live at `time`: a new minor version every two months.
    func bundleVersion(at time: Int64) -> String {
        "3." + String(max(0, SimTime.monthIndex(ofMillis: time) - world.firstMonth) / 2) + ".0"
    }
}
