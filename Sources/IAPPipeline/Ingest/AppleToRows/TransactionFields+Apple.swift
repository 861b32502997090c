import IAPModel
import IAPStore

extension TransactionFields {
    /// The fields of a V2 signed transaction.
    init(_ payload: JWSTransactionDecodedPayload) {
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
        // Tokens are compared lower-cased (REPORTS.md "Account").
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
    }

    /// The fields of one V1 receipt transaction. V1 carries no type, price or currency: the catalog
    /// supplies them at analysis time.
    init(_ receipt: LatestReceiptInfo) {
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
        revocationDate = receipt.cancellationDate
        revocationReason = receipt.cancellationDate == nil ? nil : receipt.cancellationReason
        isUpgraded = receipt.isUpgraded
        isTrialPeriod = receipt.isTrialPeriod
    }
}
