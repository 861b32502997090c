/// The renewal state of a subscription at one instant (V2 renewal info, V1 `pending_renewal_info`).
struct SimRenewal: Sendable {
    var originalTransactionId: String
    var productId: String
    var autoRenewProductId: String
    var autoRenewOn = true
    var expirationIntent: Int?
    var inBillingRetry = false
    var gracePeriodExpiresDate: Int64?
    /// 0 pending consent, 1 accepted; nil when no price increase is known.
    var priceIncreaseStatus: Int?
    var renewalDate: Int64
    var recentSubscriptionStartDate: Int64
    var appAccountToken: String?
    var environment = "Production"

    /// The `JWSRenewalInfoDecodedPayload` JSON (Documentation/Apple.md "Renewal info").
    func v2Payload(signedDate: Int64) -> JSONOutput {
        var o = JSONObjectBuilder()
        o.add("originalTransactionId", originalTransactionId)
        o.add("autoRenewProductId", autoRenewProductId)
        o.add("productId", productId)
        o.add("autoRenewStatus", autoRenewOn ? 1 : 0)
        o.add("expirationIntent", expirationIntent)
        if inBillingRetry { o.add("isInBillingRetryPeriod", true) }
        o.add("gracePeriodExpiresDate", gracePeriodExpiresDate)
        o.add("priceIncreaseStatus", priceIncreaseStatus)
        o.add("signedDate", signedDate)
        o.add("environment", environment)
        o.add("recentSubscriptionStartDate", recentSubscriptionStartDate)
        o.add("renewalDate", renewalDate)
        o.add("appAccountToken", appAccountToken)
        return o.value
    }

    /// A V1 `pending_renewal_info` entry (strings; `"1"`/`"0"` booleans as Apple spells them there).
    func v1PendingRenewalInfo() -> JSONOutput {
        var o = JSONObjectBuilder()
        o.add("auto_renew_product_id", autoRenewProductId)
        o.add("original_transaction_id", originalTransactionId)
        o.add("product_id", productId)
        o.add("auto_renew_status", autoRenewOn ? "1" : "0")
        o.add("expiration_intent", expirationIntent.map(String.init))
        if inBillingRetry || expirationIntent == 2 { o.add("is_in_billing_retry_period", inBillingRetry ? "1" : "0") }
        if let gracePeriodExpiresDate {
            SimTransaction.addDate(&o, "grace_period_expires_date", gracePeriodExpiresDate)
        }
        if let priceIncreaseStatus { o.add("price_consent_status", String(priceIncreaseStatus)) }
        return o.value
    }
}
