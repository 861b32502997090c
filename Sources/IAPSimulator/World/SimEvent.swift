/// One thing that happened to a customer, with the state Apple would report at that instant.
///
/// An event becomes a V1 body when its time falls in the V1 era (if it has a V1 type) and a V2
/// notification otherwise; some events are lost on purpose and never written.
struct SimEvent: Sendable {
    /// The notification's `signedDate` (event time plus a small signing delay).
    var time: Int64
    var v2Type: String
    var v2Subtype: String?
    /// The V1 `notification_type`, or nil when V1 sent nothing for this event.
    var v1Type: String?
    var transaction: SimTransaction
    var renewal: SimRenewal?
    /// `data.status` (subscriptions only).
    var status: Int?
    var consumptionRequestReason: String?
    /// V1 only: every transaction of the customer so far, newest first (the receipt).
    var receipt: [SimTransaction] = []
    /// The V1 top-level `auto_renew_status_change_date_ms`.
    var autoRenewChangeDate: Int64?
    /// Apple never delivered it (the churn inference rule must step in).
    var lost = false
    /// The intended churn reason of the period this event ends, counted in the manifest.
    var churnReason: String?
}

/// Everything a customer script produced: events in time order and the final transaction states.
struct EntityTimeline: Sendable {
    var events: [SimEvent] = []
    /// Final state of every transaction, in creation order.
    var transactions: [SimTransaction] = []
    /// `accounts.csv` rows this customer contributes.
    var accountRows: [(token: String, accountId: String)] = []
    /// `reviews.csv` rows a trust-and-safety reviewer wrote about this customer.
    var reviewRows: [String] = []
    /// Intended billing-episode outcomes (`recovered`, `recovered_in_grace`, `expired`, `pending`).
    var billingOutcomes: [String] = []
    /// Order IDs of purchases, for order lookups: (orderId, transaction IDs).
    var orders: [(orderId: String, transactionIds: [String])] = []
}
