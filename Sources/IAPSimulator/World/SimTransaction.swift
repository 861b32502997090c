import IAPFormats

/// One App Store transaction as the simulator tracks it: a snapshot that events copy and change.
struct SimTransaction: Sendable {
    var transactionId: String
    var originalTransactionId: String
    var webOrderLineItemId: String?
    var product: Catalog.Product
    var purchaseDate: Int64
    var originalPurchaseDate: Int64
    var expiresDate: Int64?
    var quantity: Int = 1
    var appAccountToken: String?
    var familyShared = false
    var storefront: Catalog.Storefront
    /// Unit price in milliunits of the storefront currency (0 for free trials).
    var price: Int64
    var isRenewal = false
    var isTrial = false
    var revocationDate: Int64?
    var revocationReason: Int?
    /// `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE`.
    var revocationType: String?
    var revocationPercentage: Int?
    var environment = "Production"
    var bundleId: String

    /// Whether this snapshot is a refund in the sense of Documentation/Reports.md (revoked and purchased, not shared).
    var isRefund: Bool { revocationDate != nil && !familyShared }

    /// Whether Documentation/Reports.md counts it as paid (gross above zero, not family-shared).
    var isPaid: Bool { price * Int64(quantity) > 0 && !familyShared }

    /// Clears the revocation fields, as Apple re-sends a transaction after `REFUND_REVERSED`.
    mutating func clearRevocation() {
        revocationDate = nil
        revocationReason = nil
        revocationType = nil
        revocationPercentage = nil
    }

    /// The `JWSTransactionDecodedPayload` JSON (Documentation/Apple.md "Transactions"), signed at `signedDate`.
    func v2Payload(signedDate: Int64) -> JSONOutput {
        var o = JSONObjectBuilder()
        o.add("transactionId", transactionId)
        o.add("originalTransactionId", originalTransactionId)
        o.add("webOrderLineItemId", webOrderLineItemId)
        o.add("bundleId", bundleId)
        o.add("productId", product.id)
        if product.type == .autoRenewable { o.add("subscriptionGroupIdentifier", Catalog.subscriptionGroup) }
        o.add("purchaseDate", purchaseDate)
        o.add("originalPurchaseDate", originalPurchaseDate)
        o.add("expiresDate", expiresDate)
        o.add("quantity", quantity)
        o.add("type", product.type.rawValue)
        o.add("appAccountToken", appAccountToken)
        o.add("inAppOwnershipType", familyShared ? "FAMILY_SHARED" : "PURCHASED")
        o.add("signedDate", signedDate)
        o.add("revocationReason", revocationReason)
        o.add("revocationDate", revocationDate)
        o.add("revocationType", revocationType)
        o.add("revocationPercentage", revocationPercentage)
        if isTrial {
            o.add("offerType", 1)
            o.add("offerDiscountType", "FREE_TRIAL")
            o.add("offerPeriod", "P1W")
        }
        o.add("environment", environment)
        o.add("transactionReason", isRenewal ? "RENEWAL" : "PURCHASE")
        o.add("storefront", storefront.code)
        o.add("storefrontId", storefront.id)
        o.add("price", price)
        o.add("currency", storefront.currency)
        return o.value
    }

    /// A V1 `latest_receipt_info` entry: every value a string, dates in three forms.
    func v1ReceiptInfo(trueSpelling: String, falseSpelling: String) -> JSONOutput {
        var o = JSONObjectBuilder()
        o.add("quantity", String(quantity))
        o.add("product_id", product.id)
        o.add("transaction_id", transactionId)
        o.add("original_transaction_id", originalTransactionId)
        Self.addDate(&o, "purchase_date", purchaseDate)
        Self.addDate(&o, "original_purchase_date", originalPurchaseDate)
        if let expiresDate { Self.addDate(&o, "expires_date", expiresDate) }
        if let revocationDate {
            Self.addDate(&o, "cancellation_date", revocationDate)
            o.add("cancellation_reason", String(revocationReason ?? 0))
        }
        o.add("web_order_line_item_id", webOrderLineItemId)
        if product.type == .autoRenewable {
            o.add("is_trial_period", isTrial ? trueSpelling : falseSpelling)
            o.add("is_in_intro_offer_period", falseSpelling)
            o.add("subscription_group_identifier", Catalog.subscriptionGroup)
        }
        o.add("in_app_ownership_type", familyShared ? "FAMILY_SHARED" : "PURCHASED")
        o.add("app_account_token", appAccountToken)
        return o.value
    }

    static func addDate(_ o: inout JSONObjectBuilder, _ name: String, _ ms: Int64) {
        o.add(name, SimTime.gmtText(ms))
        o.add(name + "_ms", String(ms))
        o.add(name + "_pst", SimTime.pacificText(ms))
    }
}
