public import Foundation

/// What a simulation injected, written as `expectations.json` (sorted keys) for tests and benchmarks.
///
/// Counts of documents include noise (they are what a plain re-read of the files finds); the
/// notification-type, refund and flag figures describe only what the pipeline should accept.
public struct SimulationManifest: Sendable, Codable, Equatable {
    /// Refund figures as the pipeline should compute them (newest snapshot wins).
    public struct Refunds: Sendable, Codable, Equatable {
        /// Refunds (revoked, not family-shared) in the final state.
        public var total: Int
        /// Refunds that some accepted notification reported.
        public var fromNotifications: Int
        /// Refunds that only refund-history or order lookups know (the outage).
        public var lookupsOnly: Int
        /// Consumable refunds among `total`.
        public var consumable: Int
        /// Refunds by month of refund date.
        public var byMonth: [String: Int]
    }

    /// The simulation seed.
    public var seed: UInt64
    /// The app's bundle ID.
    public var bundleId: String
    /// The app's Apple ID.
    public var appAppleId: Int64
    /// Path of the trusted root certificate, relative to the archive (`certs/root.pem`).
    public var rootCertificate: String
    /// Months of the window, `YYYY-MM`, ascending.
    public var months: [String]
    /// Months of the V1 era.
    public var v1Months: [String]
    /// Months of the V2 era.
    public var v2Months: [String]
    /// Month of the earliest purchase any accepted document carries (veterans' V1 receipts reach before the window).
    public var firstPurchaseMonth: String?
    /// The as-of time `T`: the greatest document time of any accepted document, epoch ms.
    public var asOf: Int64
    /// `asOf` as ISO 8601.
    public var asOfISO8601: String
    /// The notification outage, epoch ms (start inclusive, end exclusive), if any.
    public var outageStart: Int64?
    /// End of the outage.
    public var outageEnd: Int64?
    /// Files written, by kind.
    public var files: [String: Int]
    /// Documents written, by kind (notification lines including noise; lookup pages and their entries).
    public var documents: [String: Int]
    /// Duplicates injected: `v1Notification`, `v2Notification` (same line again), `notificationHistoryRedelivery`.
    public var duplicates: [String: Int]
    /// Forged documents: `alteredPayload` (edited after signing), `untrustedChain` (signed by another root).
    public var forged: [String: Int]
    /// Broken lines: `truncatedJSON`, `garbage`.
    public var brokenLines: [String: Int]
    /// Sandbox documents (V2 `Sandbox`, V1 `Sandbox`).
    public var sandboxDocuments: Int
    /// TEST notifications.
    public var testNotifications: Int
    /// Documents of another app (other bundle ID).
    public var otherAppDocuments: Int
    /// Notifications never delivered: `expiredNeverSent`, `outageLost`, `outageRedeliveredByHistory`.
    public var lostNotifications: [String: Int]
    /// Distinct accepted V2 notifications by `TYPE` or `TYPE/SUBTYPE` (files and history pages together).
    public var v2NotificationTypes: [String: Int]
    /// Distinct accepted V1 notifications by `notification_type`.
    public var v1NotificationTypes: [String: Int]
    /// Refund figures.
    public var refunds: Refunds
    /// Order-lookup extras: `orderLookupInvalid` (status 1), `orderLookupWithoutOrderId`.
    public var lookups: [String: Int]
    /// Churn events intended by reason (best effort: lost notifications can shift a few).
    public var intendedChurn: [String: Int]
    /// Billing episodes intended by outcome (`recovered`, `recovered_in_grace`, `expired`, `pending`).
    public var billingEpisodes: [String: Int]
    /// Accounts that `repeat_refunds`, `consumable_refund_burst` or `high_refund_rate` flag in the last month.
    public var flaggedAccounts: [String]
    /// The same for every month of the window.
    public var flaggedAccountsByMonth: [String: [String]]
    /// Rows of `accounts.csv`.
    public var accountRows: Int

    /// The manifest as pretty JSON with sorted keys.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }
}
