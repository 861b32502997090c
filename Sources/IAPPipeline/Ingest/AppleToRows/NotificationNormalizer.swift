import IAPFormats
import IAPModel
import IAPStore

/// Turns one V2 `signedPayload` (a webhook body or a notification-history entry) into store rows.
/// The notification is one document: if its outer JWS or any nested JWS fails, all of it is quarantined.
struct NotificationNormalizer: Sendable {
    let decoder: SignedPayloadDecoder
    let filter: AppFilter

    /// The rows of an accepted/other-environment/TEST notification, or the failure that quarantines it.
    /// `jws` is a string of its own (a history page's entry) or left where it lies in its line (``InPlaceString``).
    func normalize(jws: InPlaceString, receivedAt: Int64?, position: DocumentPosition, kind: DocumentKind)
        -> Result<DocumentBatch, DocumentFailure>
    {
        let outer: SignedPayloadDecoder.Decoded
        switch decoder.decode(jws) {
        case .success(let decoded): outer = decoded
        case .failure(let failure): return .failure(failure)
        }
        let payload: ResponseBodyV2DecodedPayload
        do {
            payload = try ResponseBodyV2DecodedPayload(reader: outer.payload)
        } catch {
            return .failure(.undecodablePayload(error))
        }
        guard let signedDate = payload.signedDate else {
            return .failure(DocumentFailure(.missingSignedDate, "The notification has no signedDate."))
        }
        let identity = payload.identity
        let decision: (outcome: DocumentOutcome, environment: String)
        switch filter.outcome(
            environment: identity?.environment, bundleId: identity?.bundleId, appAppleId: identity?.appAppleId)
        {
        case .success(let result): decision = result
        case .failure(let failure): return .failure(failure)
        }

        // Nested JWS are verified on their own, at their own signedDate.
        let transaction: SignedPayloadDecoder.DecodedTransaction?
        if let nested = payload.data?.signedTransactionInfo {
            do {
                transaction = try decoder.decodeTransaction(nested, fallbackSignedDate: signedDate)
            } catch {
                return .failure(error.at("data.signedTransactionInfo"))
            }
            if decision.outcome == .accepted, let bundle = transaction?.payload.bundleId,
                bundle != filter.policy.bundleId
            {
                return .failure(
                    DocumentFailure(
                        .wrongApp,
                        "data.signedTransactionInfo is for bundle ID \(bundle); this store is for \(filter.policy.bundleId)."
                    ))
            }
        } else {
            transaction = nil
        }
        var renewal: JWSRenewalInfoDecodedPayload?
        if let nested = payload.data?.signedRenewalInfo {
            switch decoder.decode(nested, fallbackSignedDate: signedDate) {
            case .failure(let failure): return .failure(failure.at("data.signedRenewalInfo"))
            case .success(let decoded):
                do {
                    renewal = try JWSRenewalInfoDecodedPayload(reader: decoded.payload)
                } catch {
                    return .failure(.undecodablePayload(error, at: "data.signedRenewalInfo"))
                }
            }
        }

        let isTest = payload.notificationType == .test
        let outcome: DocumentOutcome = isTest && decision.outcome == .accepted ? .testNotification : decision.outcome
        let documentId = payload.notificationUUID
        var batch = DocumentBatch()
        batch.documents.append(
            DocumentRow(
                position: position, kind: kind, outcome: outcome, documentId: documentId,
                environment: decision.environment, documentTime: signedDate, isVerified: decoder.verifier != nil))
        batch.notifications.append(
            NotificationRow(
                notificationId: documentId, format: .v2, notificationType: payload.rawNotificationType,
                subtype: payload.rawSubtype, environment: decision.environment, bundleId: identity?.bundleId,
                appAppleId: identity?.appAppleId, version: payload.version, signedDate: signedDate,
                receivedAt: receivedAt,
                documentTime: signedDate, transactionId: transaction?.payload.transactionId,
                originalTransactionId: transaction?.payload.originalTransactionId ?? renewal?.originalTransactionId,
                productId: transaction?.payload.productId, status: payload.data?.status,
                consumptionRequestReason: payload.data?.consumptionRequestReason, rawSHA256: outer.identity,
                isVerified: decoder.verifier != nil))
        batch.notifications[batch.notifications.count - 1].extraFields = payload.unknownFields.extraFieldsText
        // Rows are made inside the batch and completed there, and the batch moves into the result (`consume`):
        // a row made aside was copied into the batch (a retain and a release per string) and then destroyed.
        if let transaction {
            batch.transactionVersions.append(
                TransactionVersionRow(
                    transactionId: transaction.payload.transactionId, documentId: documentId, source: .v2Notification,
                    format: .v2, documentTime: signedDate, versionSHA256: transaction.identity,
                    environment: decision.environment, fields: TransactionFields(transaction.payload)))
            batch.transactionVersions[batch.transactionVersions.count - 1].extraFields =
                transaction.payload.unknownFields.extraFieldsText
        }
        if let renewal {
            batch.renewalInfos.append(
                RenewalInfoRow(
                    v2: renewal, documentId: documentId, documentTime: signedDate, environment: decision.environment))
        }
        return .success(consume batch)
    }
}

extension RenewalInfoRow {
    init(
        v2 renewal: borrowing JWSRenewalInfoDecodedPayload, documentId: String, documentTime: Int64, environment: String
    ) {
        self.init(
            documentId: documentId, originalTransactionId: renewal.originalTransactionId, format: .v2,
            documentTime: documentTime, environment: environment)
        productId = renewal.productId
        autoRenewProductId = renewal.autoRenewProductId
        autoRenewStatus = renewal.autoRenewStatus
        expirationIntent = renewal.expirationIntent
        isInBillingRetryPeriod = renewal.isInBillingRetryPeriod
        gracePeriodExpiresDate = renewal.gracePeriodExpiresDate
        priceIncreaseStatus = renewal.priceIncreaseStatus
        renewalDate = renewal.renewalDate
        signedDate = renewal.signedDate
        appAccountToken = renewal.appAccountToken?.lowercased()
        extraFields = renewal.unknownFields.extraFieldsText
    }
}
