import Foundation
import IAPFormats

/// What the fake App Store Server API serves: signed notifications by signing time, refunded transactions by
/// customer, and order lookups. All JWS are signed for real with the test chain.
public struct FakeAppStoreData: Sendable {
    /// `(signedDate, signedPayload)` of every notification Apple would list in Get Notification History.
    public var notifications: [(signedDate: Int64, signedPayload: String)] = []
    /// The refunded transactions of each customer (`revocationDate`, signed transaction); every transaction ID in
    /// `customerOf` names its customer.
    public var refunds: [String: [(revocationDate: Int64, signedTransaction: String)]] = [:]
    /// transaction ID → customer key in `refunds`.
    public var customerOf: [String: String] = [:]
    /// order ID → (status, signed transactions).
    public var orders: [String: (status: Int64, signedTransactions: [String])] = [:]
    /// Apple's financial reports the App Store Connect API serves, gzip bytes by `"<vendor>/<YYYY-MM>"` (fiscal month);
    /// a month not listed answers 404, as Apple does before publishing it and for a month without sales.
    public var financeReports: [String: [UInt8]] = [:]

    public init() {}
}

/// What the fake does to one request instead of answering it, chosen by the request's number (1-based).
public enum FakeFault: Sendable, Equatable {
    case status(Int)
    /// Answers after this long (a slow Apple).
    case delay(Duration)
    /// Closes the connection without an answer.
    case drop
    /// Answers 302 to this URL (a captive portal, a proxy): what Apple never does.
    case redirect(String)
    /// Answers this status with `Retry-After: seconds`.
    case retryAfter(status: Int, seconds: Int)
    /// Answers 200 with a body of this many bytes.
    case oversized(Int)
    /// Sends the answer's head, then its body one byte per interval.
    case trickle(Duration)
}

/// Ways the fake misbehaves on every request of a kind, as a hostile or broken server might.
public struct FakeHostility: Sendable {
    /// Get Notification History always says `hasMore` with the token it was asked with.
    public var repeatsHistoryToken = false
    /// Get Notification History answers 200 with exactly these bytes (a changed format, a proxy's own answer).
    public var historyAnswer: [UInt8]?
    /// Get Refund History always says `hasMore` with the revision it was asked with.
    public var repeatsRefundRevision = false
    /// Get Refund History answers 404 with error 4040010 for these transaction IDs, as Apple does for
    /// transactions it does not know (another environment's, another app's).
    public var unknownTransactions: Set<String> = []
    /// When set, Get Refund History knows only these transaction IDs and answers 404 `4040010` for every other one,
    /// as Apple's Production API does for Sandbox transactions and other apps' transactions.
    public var knownTransactions: Set<String>?

    public init() {}
}
