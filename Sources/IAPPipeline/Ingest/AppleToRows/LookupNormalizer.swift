import IAPFormats
import IAPModel
import IAPStore

/// Turns API lookup results — Get Refund History and Get Transaction History pages, Look Up Order ID results — into
/// store rows.
/// Each entry of `signedTransactions` is its own document: a bad entry is quarantined alone. The page's
/// document time is the greatest `signedDate` of its transactions (Documentation/Reports.md "As-of time").
struct LookupNormalizer: Sendable {
    let decoder: SignedPayloadDecoder
    let filter: AppFilter

    /// What one page produced: rows for the good entries, failures (by entry number) for the others.
    struct PageResult: Sendable {
        var batch = DocumentBatch()
        var failures: [(entry: Int, failure: DocumentFailure, excerpt: String)] = []
    }

    func refundPage(entries: [PageEntry], position: DocumentPosition) -> PageResult {
        decodeEntries(entries, position: position, kind: .refundHistoryEntry, source: .refundHistory).result
    }

    func transactionHistoryPage(entries: [PageEntry], position: DocumentPosition) -> PageResult {
        decodeEntries(entries, position: position, kind: .transactionHistoryEntry, source: .transactionHistory).result
    }

    func orderLookup(
        orderId: String?, status: Int, entries: [PageEntry], receivedAt: Int64?, documentBytes: [UInt8],
        position: DocumentPosition
    ) -> PageResult {
        let decoded = decodeEntries(entries, position: position, kind: .orderLookupEntry, source: .orderLookup)
        var result = decoded.result
        let note: String?
        let lookupId: String
        if let orderId, !orderId.isEmpty {
            lookupId = orderId
            note = nil
        } else {
            // Stored, not dropped: a stable key from the content, and a note for the reviewer.
            lookupId = "generated:" + SHA256.hex(documentBytes)
            note = "The archive did not record the order ID; key generated from the document's SHA-256."
        }
        result.batch.orderLookups.append(
            OrderLookupRow(
                lookupId: lookupId, orderId: orderId, status: Int64(status), environment: decoded.environment,
                documentTime: decoded.pageTime, receivedAt: receivedAt, note: note,
                transactionIds: decoded.transactionIds))
        return result
    }

    private func decodeEntries(
        _ entries: [PageEntry], position: DocumentPosition, kind: DocumentKind, source: TransactionSource
    )
        -> (result: PageResult, pageTime: Int64?, environment: String?, transactionIds: [String])
    {
        var result = PageResult()
        var good: [(entry: Int, jws: String, payload: JWSTransactionDecodedPayload, identity: String)] = []
        for (index, entry) in entries.enumerated() {
            let number = index + 1
            switch entry {
            case .malformed(let why):
                result.failures.append((number, DocumentFailure(.badField, "signedTransactions[\(index)]: \(why)"), ""))
            case .jws(let jws):
                do {
                    let decoded = try decoder.decodeTransaction(InPlaceString(jws))
                    good.append((number, jws, decoded.payload, decoded.identity))
                } catch {
                    result.failures.append((number, error.at("signedTransactions[\(index)]"), jws))
                }
            }
        }
        let pageTime = good.compactMap(\.payload.signedDate).max()
        var environment: String?
        var transactionIds: [String] = []
        for item in good {
            let entryPosition = DocumentPosition(
                fileSHA256: position.fileSHA256, line: position.line, entry: item.entry)
            guard let documentTime = pageTime else {
                result.failures.append(
                    (
                        item.entry,
                        DocumentFailure(.missingSignedDate, "signedTransactions[\(item.entry - 1)] has no signedDate."),
                        item.jws
                    ))
                continue
            }
            let decision: (outcome: DocumentOutcome, environment: String)
            switch filter.outcome(
                environment: item.payload.environment, bundleId: item.payload.bundleId, appAppleId: nil)
            {
            case .success(let value): decision = value
            case .failure(let failure):
                result.failures.append((item.entry, failure.at("signedTransactions[\(item.entry - 1)]"), item.jws))
                continue
            }
            environment = environment ?? decision.environment
            let documentId = "jws:" + item.identity
            transactionIds.append(item.payload.transactionId)
            result.batch.documents.append(
                DocumentRow(
                    position: entryPosition, kind: kind, outcome: decision.outcome, documentId: documentId,
                    environment: decision.environment, documentTime: documentTime, isVerified: decoder.verifier != nil))
            var version = TransactionVersionRow(
                transactionId: item.payload.transactionId, documentId: documentId, source: source, format: .v2,
                documentTime: documentTime, versionSHA256: item.identity, environment: decision.environment,
                fields: TransactionFields(item.payload))
            version.extraFields = item.payload.unknownFields.extraFieldsText
            result.batch.transactionVersions.append(version)
        }
        return (result, pageTime, environment, transactionIds.sorted())
    }
}
