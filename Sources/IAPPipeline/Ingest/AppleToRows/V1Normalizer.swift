import IAPFormats
import IAPModel
import IAPStore

/// Turns one V1 notification body into store rows. V1 is unsigned: its identity is the SHA-256 of the
/// canonical body, and its time is the envelope's `receivedAt`, else the body's greatest date.
struct V1Normalizer: Sendable {
    let filter: AppFilter
    let isVerified: Bool
    let sharedSecret: String?
    /// ``IngestPolicy/latestUnsignedTime``.
    let latestTime: Int64

    func normalize(body: JSONObject, receivedAt: Int64?, position: DocumentPosition) -> Result<
        DocumentBatch, DocumentFailure
    > {
        let decoded: ResponseBodyV1
        do {
            decoded = try ResponseBodyV1(body: body)
        } catch {
            return .failure(DocumentFailure(.badField, "\(error)"))
        }
        let receiptEnvironment = body["unified_receipt"]?["environment"]?.stringValue
        let decision: (outcome: DocumentOutcome, environment: String)
        switch filter.outcome(
            environment: decoded.rawEnvironment ?? receiptEnvironment, bundleId: decoded.bundleId, appAppleId: nil)
        {
        case .success(let result): decision = result
        case .failure(let failure): return .failure(failure)
        }
        guard let documentTime = receivedAt ?? decoded.impliedDocumentTime else {
            return .failure(
                DocumentFailure(
                    .missingDocumentTime, "The V1 body has no receivedAt envelope and no dates to take its time from."))
        }
        // Nobody signed this time: one from the future would move the as-of time T and the months reported.
        guard documentTime <= latestTime else {
            let source = receivedAt != nil ? "its envelope's receivedAt" : "its dates"
            return .failure(
                DocumentFailure(
                    .badField,
                    "The V1 body is dated \(ISO8601Millis.format(documentTime)) by \(source), after this run began: an unsigned "
                        + "time from the future is not trusted (check the archiving host's clock)."))
        }
        if let sharedSecret, decision.outcome == .accepted, body["password"]?.stringValue != sharedSecret {
            return .failure(
                DocumentFailure(.v1SecretMismatch, "The V1 body's password is not the configured shared secret."))
        }
        // Identity is the canonical body as Apple sent it (Documentation/Reports.md). Only its hash is kept, so the shared
        // secret Apple echoes in `password` never reaches the store.
        let bodyHash = SHA256.hex(JSONValue.object(body).canonicalJSON())
        let documentId = "v1:" + bodyHash

        var batch = DocumentBatch()
        batch.documents.append(
            DocumentRow(
                position: position, kind: .v1Notification, outcome: decision.outcome, documentId: documentId,
                environment: decision.environment, documentTime: documentTime, isVerified: isVerified))
        let subject = decoded.originalTransactionId ?? decoded.transactions.first?.originalTransactionId
        let newestOfSubject = decoded.transactions
            .filter { $0.originalTransactionId == subject }
            .max { ($0.purchaseDate ?? 0, $0.transactionId) < ($1.purchaseDate ?? 0, $1.transactionId) }
        batch.notifications.append(
            NotificationRow(
                notificationId: documentId, format: .v1, notificationType: decoded.rawNotificationType, subtype: nil,
                environment: decision.environment, bundleId: decoded.bundleId, appAppleId: nil, version: nil,
                signedDate: nil,
                receivedAt: receivedAt, documentTime: documentTime, transactionId: newestOfSubject?.transactionId,
                originalTransactionId: subject, productId: newestOfSubject?.productId, status: nil,
                consumptionRequestReason: nil, rawSHA256: bodyHash, isVerified: isVerified))

        // A receipt may list a transaction twice (V1 quirk); one version per (transaction, document).
        var seen: Set<String> = []
        for receipt in decoded.transactions where seen.insert(receipt.transactionId).inserted {
            var version = TransactionVersionRow(
                transactionId: receipt.transactionId, documentId: documentId, source: .v1Notification, format: .v1,
                documentTime: documentTime, versionSHA256: SHA256.hex(documentId + "/" + receipt.transactionId),
                environment: decision.environment, fields: TransactionFields(receipt))
            version.extraFields = receipt.unknownFields.extraFieldsText
            batch.transactionVersions.append(version)
        }
        batch.renewalInfos = renewalRows(
            decoded, documentId: documentId, documentTime: documentTime, environment: decision.environment)
        return .success(batch)
    }

    /// One renewal state per subscription in `pending_renewal_info`; the top-level fields fill gaps for
    /// the subscription the notification is about (and stand alone when the receipt has no entry for it).
    private func renewalRows(_ body: ResponseBodyV1, documentId: String, documentTime: Int64, environment: String)
        -> [RenewalInfoRow]
    {
        var rows: [RenewalInfoRow] = []
        var seen: Set<String> = []
        for info in body.pendingRenewalInfo where seen.insert(info.originalTransactionId).inserted {
            var row = RenewalInfoRow(
                documentId: documentId, originalTransactionId: info.originalTransactionId, format: .v1,
                documentTime: documentTime, environment: environment)
            let isSubject = info.originalTransactionId == body.originalTransactionId
            row.productId = info.productId
            row.autoRenewProductId = info.autoRenewProductId ?? (isSubject ? body.autoRenewProductId : nil)
            row.autoRenewStatus = (info.autoRenewStatus ?? (isSubject ? body.autoRenewStatus : nil)).map { $0 ? 1 : 0 }
            row.expirationIntent = info.expirationIntent ?? (isSubject ? body.expirationIntent : nil)
            row.isInBillingRetryPeriod = info.isInBillingRetryPeriod
            row.gracePeriodExpiresDate = info.gracePeriodExpiresDate
            row.priceIncreaseStatus = info.priceConsentStatus
            row.extraFields = info.unknownFields.extraFieldsText
            rows.append(row)
        }
        if let subject = body.originalTransactionId, !seen.contains(subject),
            body.autoRenewStatus != nil || body.expirationIntent != nil
        {
            var row = RenewalInfoRow(
                documentId: documentId, originalTransactionId: subject, format: .v1, documentTime: documentTime,
                environment: environment)
            row.autoRenewProductId = body.autoRenewProductId
            row.autoRenewStatus = body.autoRenewStatus.map { $0 ? 1 : 0 }
            row.expirationIntent = body.expirationIntent
            rows.append(row)
        }
        return rows
    }
}
