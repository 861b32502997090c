import Foundation
import GRDB
import IAPAnalytics
import IAPStore

/// Milliseconds in a day.
let day: Int64 = 86_400_000

/// Unix milliseconds of an ISO 8601 UTC date (`2026-03-01`) or timestamp (`2026-03-01T12:00:00Z`).
func at(_ text: String) -> Int64 {
    let full = text.count == 10 ? text + "T00:00:00Z" : text
    let formatter = ISO8601DateFormatter()
    guard let date = formatter.date(from: full) else { preconditionFailure("bad date \(text)") }
    return Int64((date.timeIntervalSince1970 * 1000).rounded())
}

/// One transaction snapshot, built fluently.
struct Txn {
    var id: String
    var fields = TransactionFields()

    static func subscription(
        _ id: String, original: String, product: String = "pro.monthly", purchase: Int64, expires: Int64,
        price: Int64? = 9_990, currency: String? = "USD", token: String? = nil, originalPurchase: Int64? = nil
    ) -> Txn {
        var txn = Txn(id: id)
        txn.fields.originalTransactionId = original
        txn.fields.productId = product
        txn.fields.purchaseDate = purchase
        txn.fields.originalPurchaseDate = originalPurchase ?? purchase
        txn.fields.expiresDate = expires
        txn.fields.type = "Auto-Renewable Subscription"
        txn.fields.price = price
        txn.fields.currency = price == nil ? nil : currency
        txn.fields.quantity = 1
        txn.fields.appAccountToken = token
        txn.fields.inAppOwnershipType = "PURCHASED"
        return txn
    }

    static func consumable(
        _ id: String, product: String = "coins.100", purchase: Int64, price: Int64 = 1_990, currency: String = "USD",
        token: String? = nil
    ) -> Txn {
        var txn = Txn(id: id)
        txn.fields.originalTransactionId = id
        txn.fields.productId = product
        txn.fields.purchaseDate = purchase
        txn.fields.originalPurchaseDate = purchase
        txn.fields.type = "Consumable"
        txn.fields.price = price
        txn.fields.currency = currency
        txn.fields.quantity = 1
        txn.fields.appAccountToken = token
        txn.fields.inAppOwnershipType = "PURCHASED"
        return txn
    }

    /// A V1 `latest_receipt_info` entry: no price, currency or type.
    static func v1(
        _ id: String, original: String, product: String, purchase: Int64, expires: Int64? = nil, trial: Bool = false
    ) -> Txn {
        var txn = Txn(id: id)
        txn.fields.originalTransactionId = original
        txn.fields.productId = product
        txn.fields.purchaseDate = purchase
        txn.fields.originalPurchaseDate = purchase
        txn.fields.expiresDate = expires
        txn.fields.quantity = 1
        txn.fields.isTrialPeriod = trial
        return txn
    }

    func revoked(at time: Int64, percentage: Int64? = nil) -> Txn {
        var copy = self
        copy.fields.revocationDate = time
        copy.fields.revocationReason = 0
        copy.fields.revocationPercentage = percentage
        return copy
    }

    func notRevoked() -> Txn {
        var copy = self
        copy.fields.revocationDate = nil
        copy.fields.revocationReason = nil
        copy.fields.revocationPercentage = nil
        return copy
    }

    func familyShared() -> Txn {
        var copy = self
        copy.fields.inAppOwnershipType = "FAMILY_SHARED"
        return copy
    }

    func freeTrial() -> Txn {
        var copy = self
        copy.fields.price = 0
        copy.fields.offerType = 1
        copy.fields.offerDiscountType = "FREE_TRIAL"
        return copy
    }
}

/// One renewal-state snapshot.
struct Renewal {
    var original: String
    var autoRenew: Bool? = true
    var intent: Int64? = nil
    var billingRetry: Bool? = nil
    var grace: Int64? = nil
}

/// A store (in memory, the SQLite file at `path`, or any engine) filled by hand with the facts ingest would write,
/// then analyzed.
final class Scenario {
    let engine: any StoreEngine
    private var batch = DocumentBatch()
    private var line = 0

    /// The store, when it is SQLite (every scenario but those given another engine).
    var store: SQLiteStore { engine as! SQLiteStore }

    convenience init(path: String? = nil) throws {
        try self.init(engine: try path.map { try SQLiteStore(path: $0) } ?? SQLiteStore.inMemory())
    }

    init(engine: any StoreEngine) throws {
        self.engine = engine
        try engine.write { connection in
            try connection.executeScript(
                """
                insert into runs (run_id, command, started_at, outcome, is_verified)
                values (1, 'test', '2026-01-01T00:00:00Z', 'completed', 1)
                """)
        }
        var registration = DocumentBatch()
        registration.startedFiles.append(StartedFile(fileSHA256: "file", path: "test.jsonl", byteCount: 0, runId: 1))
        try engine.makeDocumentWriter().write(registration)
    }

    private func document(
        _ id: String, kind: DocumentKind, time: Int64, environment: String, outcome: DocumentOutcome = .accepted,
        verified: Bool = true
    ) {
        line += 1
        batch.documents.append(
            DocumentRow(
                position: DocumentPosition(fileSHA256: "file", line: line, entry: 0), kind: kind, outcome: outcome,
                documentId: id, environment: environment, documentTime: time, isVerified: verified))
    }

    /// A V2 notification carrying `transaction` (and `renewal`), signed at `time`.
    @discardableResult
    func notify(
        _ type: String, subtype: String? = nil, at time: Int64, _ transaction: Txn? = nil, renewal: Renewal? = nil,
        environment: String = "Production", verified: Bool = true
    ) -> String {
        let id = "n\(line + 1)-\(type)"
        let outcome: DocumentOutcome =
            type == "TEST" ? .testNotification : environment == "Production" ? .accepted : .otherEnvironment
        document(id, kind: .v2Notification, time: time, environment: environment, outcome: outcome, verified: verified)
        batch.notifications.append(
            NotificationRow(
                notificationId: id, format: .v2, notificationType: type, subtype: subtype, environment: environment,
                bundleId: "com.example.app", appAppleId: nil, version: "2.0", signedDate: time, receivedAt: nil,
                documentTime: time, transactionId: transaction?.id,
                originalTransactionId: transaction?.fields.originalTransactionId,
                productId: transaction?.fields.productId, status: nil, consumptionRequestReason: nil, rawSHA256: id,
                isVerified: verified))
        if let transaction {
            version(
                transaction, document: id, source: .v2Notification, format: .v2, time: time, environment: environment)
        }
        if let renewal {
            renewalInfo(renewal, document: id, format: .v2, time: time, environment: environment)
        }
        return id
    }

    /// Another copy of an already written document (same ID, another line), e.g. a retried delivery; its
    /// outcome is whatever ingest decided for that copy.
    func redelivered(_ id: String, at time: Int64, outcome: DocumentOutcome, environment: String = "Production") {
        document(id, kind: .v2Notification, time: time, environment: environment, outcome: outcome)
    }

    /// A V1 notification body carrying `transactions` (latest_receipt_info) and `renewals`
    /// (pending_renewal_info); its document time is `time`.
    @discardableResult
    func notifyV1(
        _ type: String, at time: Int64, original: String, transactions: [Txn], renewals: [Renewal] = [],
        environment: String = "Production"
    ) -> String {
        let id = "v1:\(line + 1)"
        document(id, kind: .v1Notification, time: time, environment: environment)
        batch.notifications.append(
            NotificationRow(
                notificationId: id, format: .v1, notificationType: type, subtype: nil, environment: environment,
                bundleId: "com.example.app", appAppleId: nil, version: nil, signedDate: nil, receivedAt: time,
                documentTime: time, transactionId: nil, originalTransactionId: original, productId: nil, status: nil,
                consumptionRequestReason: nil, rawSHA256: id, isVerified: true))
        for transaction in transactions {
            version(
                transaction, document: id, source: .v1Notification, format: .v1, time: time, environment: environment)
        }
        for renewal in renewals {
            renewalInfo(renewal, document: id, format: .v1, time: time, environment: environment)
        }
        return id
    }

    /// One entry of a Get Refund History page.
    func refundHistory(at time: Int64, _ transaction: Txn) {
        let id = "jws:rh\(line + 1)"
        document(id, kind: .refundHistoryEntry, time: time, environment: "Production")
        version(transaction, document: id, source: .refundHistory, format: .v2, time: time, environment: "Production")
    }

    /// A Look Up Order ID result.
    func orderLookup(_ orderId: String?, status: Int64 = 0, at time: Int64, _ transactions: [Txn], note: String? = nil)
    {
        let lookupId = orderId ?? "generated:\(line + 1)"
        for transaction in transactions {
            let id = "jws:ol\(line + 1)"
            document(id, kind: .orderLookupEntry, time: time, environment: "Production")
            version(transaction, document: id, source: .orderLookup, format: .v2, time: time, environment: "Production")
        }
        batch.orderLookups.append(
            OrderLookupRow(
                lookupId: lookupId, orderId: orderId, status: status,
                environment: transactions.isEmpty ? nil : "Production", documentTime: transactions.isEmpty ? nil : time,
                receivedAt: time, note: note, transactionIds: transactions.map(\.id)))
    }

    private func version(
        _ transaction: Txn, document: String, source: TransactionSource, format: PayloadFormat, time: Int64,
        environment: String
    ) {
        batch.transactionVersions.append(
            TransactionVersionRow(
                transactionId: transaction.id, documentId: document, source: source, format: format, documentTime: time,
                versionSHA256: "\(document)/\(transaction.id)", environment: environment, fields: transaction.fields))
    }

    private func renewalInfo(
        _ renewal: Renewal, document: String, format: PayloadFormat, time: Int64, environment: String
    ) {
        var row = RenewalInfoRow(
            documentId: document, originalTransactionId: renewal.original, format: format, documentTime: time,
            environment: environment)
        row.autoRenewStatus = renewal.autoRenew.map { $0 ? 1 : 0 }
        row.expirationIntent = renewal.intent
        row.isInBillingRetryPeriod = renewal.billingRetry
        row.gracePeriodExpiresDate = renewal.grace
        batch.renewalInfos.append(row)
    }

    func products(_ rows: [(String, String, String, Int64)]) throws {
        try ReferenceWriter(store: engine).replaceProducts(
            rows.enumerated().map { index, row in
                ProductReferenceRow(
                    line: index + 2, productId: row.0, productType: row.1, currency: row.2, priceMilli: row.3)
            })
    }

    func accounts(_ rows: [(String, String)]) throws {
        try ReferenceWriter(store: engine).replaceAccounts(
            rows.enumerated().map { index, row in
                AccountReferenceRow(line: index + 2, appAccountToken: row.0, accountId: row.1)
            })
    }

    /// Writes the facts, builds the models and reads the report set. Every model is built, even when the marts
    /// stand (`keepingCurrentModels` false): a test that compares two builds compares two builds.
    func report(
        _ options: AnalysisOptions = AnalysisOptions(bundleId: "com.example.app"), modelWorkers: Int? = nil,
        keepingCurrentModels: Bool = false
    ) throws -> ReportSet {
        try engine.makeDocumentWriter().write(batch)
        batch = DocumentBatch()
        let analyzer = Analyzer(store: engine, modelWorkers: modelWorkers)
        _ = try analyzer.analyze(options, keepingCurrentModels: keepingCurrentModels)
        return try analyzer.reportSet(options)
    }
}

extension ReportSet {
    /// The rows of one CSV of one month as text cells (integers written plainly, empty cells as "").
    func rows(_ month: String, _ file: String) -> [[String]] {
        guard let table = months.first(where: { $0.month == month })?.table(file) else { return [] }
        return table.rows.map { row in
            row.map { value in
                switch value {
                case .text(let text): return text
                case .integer(let number): return String(number)
                case .empty: return ""
                }
            }
        }
    }

    /// The rows of one CSV across all months.
    func allRows(_ file: String) -> [[String]] {
        months.flatMap { rows($0.month, file) }
    }

    var monthNames: [String] { months.map(\.month) }
}
