import IAPFormats
import IAPStore
import IAPVerification

/// Turns the bytes of one input line into store rows: recognise the shape, verify and decode every
/// signed value, apply the app/environment policy. Pure and thread-safe: ingest runs it on all cores.
public struct DocumentProcessor: Sendable {
    private let notifications: NotificationNormalizer
    private let v1: V1Normalizer
    private let lookups: LookupNormalizer

    /// Creates a processor. `verifier` is nil under `--no-verify`.
    public init(policy: IngestPolicy, verifier: JWSVerifier?) {
        let decoder = SignedPayloadDecoder(verifier: policy.verifySignatures ? verifier : nil)
        let filter = AppFilter(policy: policy)
        notifications = NotificationNormalizer(decoder: decoder, filter: filter)
        v1 = V1Normalizer(
            filter: filter, isVerified: policy.verifySignatures, sharedSecret: policy.v1SharedSecret,
            latestTime: policy.latestUnsignedTime)
        lookups = LookupNormalizer(decoder: decoder, filter: filter)
    }

    /// The rows one line produces (documents, facts, quarantine).
    public func process(bytes: [UInt8], line: Int, file: SourceFile) -> DocumentBatch {
        let position = DocumentPosition(fileSHA256: file.sha256, line: line, entry: 0)
        // Nearly every line is one V2 notification: read in place, its JWS is never copied into a String. Anything
        // else, including every failure, goes through `DocumentShape.recognise`, as before.
        if let signed = DocumentShape.signedNotificationInPlace(bytes) {
            let result = notifications.normalize(
                jws: InPlaceString(document: bytes, range: signed.signedPayload), receivedAt: signed.receivedAtMillis,
                position: position, kind: .v2Notification)
            return single(result, position: position, kind: .v2Notification, file: file, excerpt: bytes)
        }
        let recognised: RecognisedDocument
        switch DocumentShape.recognise(bytes) {
        case .success(let document): recognised = document
        case .failure(let failure):
            let reason = QuarantineReason(failure.reason)
            return Self.quarantined(
                position, kind: .unknown, file: file, failure: DocumentFailure(reason, failure.message), excerpt: bytes)
        }
        let receivedAt = recognised.receivedAtMillis
        switch recognised.body {
        case .v2Notification(let jws):
            return single(
                notifications.normalize(
                    jws: InPlaceString(jws), receivedAt: receivedAt, position: position, kind: .v2Notification),
                position: position, kind: .v2Notification, file: file, excerpt: bytes)
        case .v1Notification(let body):
            return single(
                v1.normalize(body: body, receivedAt: receivedAt, position: position),
                position: position, kind: .v1Notification, file: file, excerpt: bytes)
        case .notificationHistoryPage(let entries, _, _):
            var batch = DocumentBatch()
            for (index, entry) in entries.enumerated() {
                let entryPosition = DocumentPosition(fileSHA256: file.sha256, line: line, entry: index + 1)
                let kind = DocumentKind.notificationHistoryEntry
                switch entry {
                case .malformed(let why):
                    batch.append(
                        contentsOf: Self.quarantined(
                            entryPosition, kind: kind, file: file,
                            failure: DocumentFailure(.badField, "notificationHistory[\(index)]: \(why)"), excerpt: []))
                case .jws(let jws):
                    let result = notifications.normalize(
                        jws: InPlaceString(jws), receivedAt: receivedAt, position: entryPosition, kind: kind)
                    batch.append(
                        contentsOf: single(
                            result, position: entryPosition, kind: kind, file: file, excerpt: Array(jws.utf8)))
                }
            }
            return batch
        case .refundHistoryPage(let entries, _, _):
            return page(
                lookups.refundPage(entries: entries, position: position), position: position, kind: .refundHistoryEntry,
                file: file)
        case .transactionHistoryPage(let entries, _, _):
            return page(
                lookups.transactionHistoryPage(entries: entries, position: position), position: position,
                kind: .transactionHistoryEntry, file: file)
        case .orderLookup(let orderId, let status, let entries):
            let result = lookups.orderLookup(
                orderId: orderId, status: status, entries: entries, receivedAt: receivedAt, documentBytes: bytes,
                position: position)
            return page(result, position: position, kind: .orderLookupEntry, file: file)
        }
    }

    /// Rows for a failure found while reading the file itself (bad gzip, too-long line).
    public func readFailure(_ failure: FormatFailure, line: Int, file: SourceFile) -> DocumentBatch {
        let reason = QuarantineReason(failure.reason)
        return Self.quarantined(
            DocumentPosition(fileSHA256: file.sha256, line: line, entry: 0), kind: .unknown, file: file,
            failure: DocumentFailure(reason, failure.message), excerpt: [])
    }

    private func single(
        _ result: Result<DocumentBatch, DocumentFailure>, position: DocumentPosition, kind: DocumentKind,
        file: SourceFile, excerpt: [UInt8]
    ) -> DocumentBatch {
        switch result {
        case .success(let batch): return batch
        case .failure(let failure):
            return Self.quarantined(position, kind: kind, file: file, failure: failure, excerpt: excerpt)
        }
    }

    private func page(
        _ result: LookupNormalizer.PageResult, position: DocumentPosition, kind: DocumentKind, file: SourceFile
    ) -> DocumentBatch {
        var batch = result.batch
        for item in result.failures {
            let entryPosition = DocumentPosition(
                fileSHA256: position.fileSHA256, line: position.line, entry: item.entry)
            batch.append(
                contentsOf: Self.quarantined(
                    entryPosition, kind: kind, file: file, failure: item.failure, excerpt: Array(item.excerpt.utf8)))
        }
        return batch
    }

    static func quarantined(
        _ position: DocumentPosition, kind: DocumentKind, file: SourceFile, failure: DocumentFailure, excerpt: [UInt8]
    ) -> DocumentBatch {
        var batch = DocumentBatch()
        batch.documents.append(
            DocumentRow(
                position: position, kind: kind, outcome: .quarantined, documentId: nil, environment: nil,
                documentTime: nil, isVerified: false))
        batch.quarantine.append(
            QuarantineRow(
                position: position, path: file.path, reason: failure.reason.rawValue, message: failure.message,
                excerpt: Self.excerpt(excerpt)))
        return batch
    }

    /// At most 200 characters of the document, invalid UTF-8 replaced, control characters escaped.
    static func excerpt(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(600), as: UTF8.self)
        var out = ""
        for scalar in text.unicodeScalars.prefix(200) {
            out.unicodeScalars.append(scalar.value < 0x20 ? "\u{FFFD}" : scalar)
        }
        return out
    }
}

/// An input file being ingested: its path and content hash.
public struct SourceFile: Sendable, Equatable {
    /// Path as given/found.
    public let path: String
    /// SHA-256 of its bytes.
    public let sha256: String
    /// Size in bytes.
    public let byteCount: Int64
    /// The hash of an earlier, shorter state of this file whose rows become this file's (``FileContinuation``).
    public let continues: String?

    /// Creates a file record.
    public init(path: String, sha256: String, byteCount: Int64, continues: String? = nil) {
        self.continues = continues
        self.path = path
        self.sha256 = sha256
        self.byteCount = byteCount
    }
}
