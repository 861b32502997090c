/// What `iaplens fetch` asks Apple for.
public struct FetchOptions: Sendable {
    public var archive: String
    public var database: String
    public var bundleId: String
    public var issuerId: String
    public var keyId: String
    public var privateKeyPath: String
    public var environment: AppStoreServerAPI.Environment = .production
    /// Overrides the environment's base URL (tests, proxies).
    public var apiURL: String?
    /// Notification history window; nil: from where the last fetch ended (or 180 days back) to now.
    public var since: Int64?
    public var until: Int64?
    /// `all`: refund history of every customer the store knows; `none`: only `transactionIdsPath`'s.
    public var refundHistoryForAll = true
    public var notificationHistory = true
    public var transactionIdsPath: String?
    public var orderIdsPath: String?
    /// Requests in flight at once for refund history and order lookups.
    public var concurrency = 4
    public var retry = RetryPolicy()
    /// Apple's financial reports through the App Store Connect API (nil: not asked for).
    public var finance: FinanceFetchOptions?
    /// False when only financial reports are fetched (no In-App Purchase key given).
    public var serverAPI = true
    /// When a fetch stops on its own (time, pages).
    public var limits = FetchLimits()
    /// Sentences about how the options were taken (an `--until` in the future clamped to now), logged as warnings.
    public var notes: [String] = []

    public init(
        archive: String, database: String, bundleId: String, issuerId: String, keyId: String, privateKeyPath: String
    ) {
        self.archive = archive
        self.database = database
        self.bundleId = bundleId
        self.issuerId = issuerId
        self.keyId = keyId
        self.privateKeyPath = privateKeyPath
    }
}

/// The App Store Connect API key and vendor of `fetch --connect-…` (financial reports).
public struct FinanceFetchOptions: Sendable {
    public var issuerId: String
    public var keyId: String
    public var privateKeyPath: String
    public var vendorNumber: String
    /// The vendor's name as its reports write it (`Vendor Name`): when set, a report naming another vendor, or none,
    /// is not saved. Apple's reports carry the name only, so the number asked for cannot be checked.
    public var vendorName: String?
    /// Overrides Apple's base URL (tests, proxies).
    public var apiURL: String?

    public init(
        issuerId: String, keyId: String, privateKeyPath: String, vendorNumber: String, vendorName: String? = nil,
        apiURL: String? = nil
    ) {
        self.issuerId = issuerId
        self.keyId = keyId
        self.privateKeyPath = privateKeyPath
        self.vendorNumber = vendorNumber
        self.vendorName = vendorName
        self.apiURL = apiURL
    }
}
