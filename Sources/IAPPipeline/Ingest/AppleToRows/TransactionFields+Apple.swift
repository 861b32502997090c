import IAPModel
import IAPStore

extension TransactionFields {
    /// The fields of a V2 signed transaction. `borrowing`: an initializer takes its arguments owned unless told
    /// otherwise, so each caller copied the whole payload (some twenty strings) only for this to copy its fields.
    init(_ payload: borrowing JWSTransactionDecodedPayload) {
        self.init()
        originalTransactionId = payload.originalTransactionId
        webOrderLineItemId = payload.webOrderLineItemId
        bundleId = payload.bundleId
        productId = payload.productId
        subscriptionGroupIdentifier = payload.subscriptionGroupIdentifier
        purchaseDate = payload.purchaseDate
        originalPurchaseDate = payload.originalPurchaseDate
        expiresDate = payload.expiresDate
        quantity = payload.quantity
        type = payload.rawType
        // Tokens are compared lower-cased (Documentation/Reports.md "Account").
        appAccountToken = payload.appAccountToken?.lowercased()
        inAppOwnershipType = payload.rawInAppOwnershipType
        signedDate = payload.signedDate
        revocationDate = payload.revocationDate
        revocationReason = payload.revocationReason
        revocationType = payload.revocationType
        revocationPercentage = payload.revocationPercentage
        isUpgraded = payload.isUpgraded
        offerType = payload.offerType
        offerDiscountType = payload.offerDiscountType
        storefront = payload.storefront
        transactionReason = payload.transactionReason
        currency = payload.currency
        price = payload.price
        appTransactionId = payload.appTransactionId
    }

    /// The fields of one V1 receipt transaction. V1 carries no type, price or currency: the catalog
    /// supplies them at analysis time.
    init(_ receipt: borrowing LatestReceiptInfo) {
        self.init()
        originalTransactionId = receipt.originalTransactionId
        webOrderLineItemId = receipt.webOrderLineItemId
        productId = receipt.productId
        subscriptionGroupIdentifier = receipt.subscriptionGroupIdentifier
        purchaseDate = receipt.purchaseDate
        originalPurchaseDate = receipt.originalPurchaseDate
        expiresDate = receipt.expiresDate
        quantity = receipt.quantity
        appAccountToken = receipt.appAccountToken?.lowercased()
        inAppOwnershipType = receipt.rawInAppOwnershipType
        // V1 sets cancellation_date both on a refunded (or family-revoked) entry and on the entry of a plan the
        // customer upgraded away from (`is_upgraded`); only the first is a revocation. V2 keeps them apart: an
        // upgraded transaction has `isUpgraded` and no `revocationDate`.
        let revocation = receipt.isUpgraded == true ? nil : receipt.cancellationDate
        revocationDate = revocation
        revocationReason = revocation == nil ? nil : receipt.cancellationReason
        isUpgraded = receipt.isUpgraded
        isTrialPeriod = receipt.isTrialPeriod
    }
}
