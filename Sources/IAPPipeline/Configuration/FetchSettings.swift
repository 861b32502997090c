/// The App Store Server API settings of a configuration (`iaplens fetch`, and `run` when they are set): plain
/// values; the fetch itself (`IAPFetch`) turns them into requests.
public struct FetchSettings: Sendable, Equatable {
    public var issuerId: String?
    public var keyId: String?
    /// The `.p8` file.
    public var privateKey: String?
    /// Where fetched pages go; default: the first `--input`.
    public var archive: String?
    public var apiURL: String?
    /// ISO 8601 bounds of the notification-history window.
    public var since: String?
    public var until: String?
    /// `all` (default) or `none`.
    public var refundHistory: String?
    public var transactionIds: String?
    public var orderIds: String?
    /// The app's consumption facts CSV (`iaplens consumption --facts`); `run` answers pending requests when set.
    public var facts: String?
    /// How long one `consumption` run may take, in seconds (`--deadline`): it holds the store's lock, so it is bounded;
    /// requests not tried by then stay pending for the next run.
    public var consumptionDeadlineSeconds: Int64 = FetchSettings.defaultConsumptionDeadlineSeconds
    public static let defaultConsumptionDeadlineSeconds: Int64 = 600
    /// The App Store Connect API key and vendor number: Apple's financial reports.
    public var connectIssuerId: String?
    public var connectKeyId: String?
    public var connectPrivateKey: String?
    public var vendorNumber: String?
    /// The vendor's name as Apple's reports write it: a downloaded report naming another is not saved.
    public var vendorName: String?
    public var connectAPIURL: String?

    public init() {}

    /// True when a key is configured: `run` then fetches before it ingests.
    public var isConfigured: Bool { issuerId != nil && keyId != nil && privateKey != nil }

    /// The options of the App Store Server API key that are not set, as flags name them (`issuer-id`, …).
    public var missingServerKeyOptions: [String] {
        Self.unset([("issuer-id", issuerId), ("key-id", keyId), ("private-key", privateKey)])
    }

    /// The App Store Connect options (financial reports) that are not set; an empty vendor number is none.
    public var missingConnectOptions: [String] {
        Self.unset([
            ("connect-issuer-id", connectIssuerId), ("connect-key-id", connectKeyId),
            ("connect-private-key", connectPrivateKey),
            ("vendor-number", vendorNumber.flatMap { $0.isEmpty ? nil : $0 }),
        ])
    }

    /// The names of the options without a value.
    private static func unset(_ options: [(name: String, value: String?)]) -> [String] {
        options.filter { $0.value == nil }.map(\.name)
    }

    /// True when any App Store Connect option is set: fetch then downloads financial reports (and needs them all).
    public var asksForFinancialReports: Bool {
        connectIssuerId != nil || connectKeyId != nil || connectPrivateKey != nil || vendorNumber != nil
    }
}
