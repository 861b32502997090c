/// What the store holds and how much of it counted: the data-quality section of every `report.md`.
/// Store-wide (not per month), so every month's page tells the same story about the same data.
public struct DataQualitySummary: Sendable, Equatable {
    /// Input files read (complete), by content.
    public var filesRead: Int
    /// Documents read (a notification, or one entry of a page), counting every copy.
    public var documentsRead: Int
    /// Documents accepted (verified, right app and environment, not TEST), counting every copy.
    public var accepted: Int
    /// Copies of accepted documents seen more than once (Apple retries, overlapping pages, re-archived files).
    public var duplicates: Int
    /// Quarantined documents by reason code, sorted by code.
    public var quarantinedByReason: [ReasonCount]
    /// Documents of other environments (stored, never counted), by environment name.
    public var otherEnvironments: [ReasonCount]
    /// TEST notifications (stored, never counted).
    public var testNotifications: Int
    /// Accepted documents that were ingested with `--no-verify` (signatures not checked).
    public var unverifiedDocuments: Int
    /// Transactions counted without a price (V1 without a catalog row); their currency is `XXX`.
    public var unpricedTransactions: Int
    /// Refunds and purchases whose account could not be linked (no token, not a subscription).
    public var unlinkedTransactions: Int
    /// Whether `products.csv` / `accounts.csv` were loaded, with their row counts.
    public var productCatalogRows: Int?
    /// Rows of `accounts.csv`, when loaded.
    public var accountMappingRows: Int?

    /// Creates a summary.
    public init(
        filesRead: Int = 0, documentsRead: Int = 0, accepted: Int = 0, duplicates: Int = 0,
        quarantinedByReason: [ReasonCount] = [], otherEnvironments: [ReasonCount] = [], testNotifications: Int = 0,
        unverifiedDocuments: Int = 0, unpricedTransactions: Int = 0, unlinkedTransactions: Int = 0,
        productCatalogRows: Int? = nil, accountMappingRows: Int? = nil
    ) {
        self.filesRead = filesRead
        self.documentsRead = documentsRead
        self.accepted = accepted
        self.duplicates = duplicates
        self.quarantinedByReason = quarantinedByReason
        self.otherEnvironments = otherEnvironments
        self.testNotifications = testNotifications
        self.unverifiedDocuments = unverifiedDocuments
        self.unpricedTransactions = unpricedTransactions
        self.unlinkedTransactions = unlinkedTransactions
        self.productCatalogRows = productCatalogRows
        self.accountMappingRows = accountMappingRows
    }
}

/// A label and a count, e.g. a quarantine reason code and how many documents it stopped.
public struct ReasonCount: Sendable, Equatable {
    /// The label (reason code, environment name).
    public let label: String
    /// How many.
    public let count: Int

    /// Creates a labelled count.
    public init(label: String, count: Int) {
        self.label = label
        self.count = count
    }
}
