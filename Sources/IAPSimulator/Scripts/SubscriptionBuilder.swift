import IAPFormats

/// Builds one subscription's transactions and events step by step, keeping Apple's renewal state.
///
/// Every step returns whether the subscription goes on; a step that would happen after the
/// simulation's horizon is not recorded and sets `hitHorizon`.
struct SubscriptionBuilder {
    let world: SimWorld
    let kind: SimWorld.Kind
    let index: Int
    var token: String?
    var storefront: Catalog.Storefront
    var familyShared = false
    var product: Catalog.Product
    var timeline = EntityTimeline()
    private(set) var hitHorizon = false
    private(set) var lastEventTime: Int64 = 0
    private var sequence = 0
    private var renewal: SimRenewal?
    private var autoRenewChange: Int64 = 0
    /// Index in `timeline.transactions` of the current subscription period.
    private var currentIndex = 0

    init(world: SimWorld, kind: SimWorld.Kind, index: Int) {
        self.world = world
        self.kind = kind
        self.index = index
        storefront = world.catalog.storefronts[0]
        product = world.catalog.monthly
    }

    var current: SimTransaction { timeline.transactions[currentIndex] }

    private var originalTransactionId: String? { renewal?.originalTransactionId }

    // MARK: - Purchases

    /// Pre-window history of a veteran subscriber: transactions only (no notification reached the archive).
    mutating func backfill(from start: Int64, random r: inout SimRandom) {
        var tx = newTransaction(at: start, trial: false)
        tx.isRenewal = false
        append(tx)
        renewal = makeRenewal(tx, recentStart: start)
        autoRenewChange = start
        while let expires = current.expiresDate, expires < world.windowStart {
            var next = newTransaction(at: expires, trial: false)
            next.isRenewal = true
            append(next)
        }
        let end = current.expiresDate ?? start
        renewal?.renewalDate = end
    }

    /// `SUBSCRIBED` (`INITIAL_BUY`, or `RESUBSCRIBE` after a lapse).
    mutating func subscribe(at time: Int64, trial: Bool, resubscribe: Bool, random r: inout SimRandom) -> Bool {
        guard time < world.horizon else { hitHorizon = true; return false }
        let tx = newTransaction(at: time, trial: trial)
        append(tx)
        if resubscribe, var state = renewal {
            state.productId = tx.product.id
            state.autoRenewProductId = tx.product.id
            state.autoRenewOn = true
            state.expirationIntent = nil
            state.inBillingRetry = false
            state.gracePeriodExpiresDate = nil
            state.priceIncreaseStatus = nil
            state.renewalDate = tx.expiresDate ?? time
            state.recentSubscriptionStartDate = time
            renewal = state
        } else {
            renewal = makeRenewal(tx, recentStart: time)
        }
        autoRenewChange = time
        let v1: String? = resubscribe ? "INTERACTIVE_RENEWAL" : (familyShared ? nil : "INITIAL_BUY")
        emit("SUBSCRIBED", resubscribe ? "RESUBSCRIBE" : "INITIAL_BUY", v1: v1, at: time, status: 1, random: &r)
        return true
    }

    /// `DID_RENEW` (optionally `BILLING_RECOVERY`): a new period starting at `time`.
    mutating func renew(at time: Int64, subtype: String? = nil, v1: String = "DID_RENEW", random r: inout SimRandom)
        -> Bool
    {
        guard time < world.horizon else { hitHorizon = true; return false }
        var tx = newTransaction(at: time, trial: false)
        tx.isRenewal = true
        append(tx)
        renewal?.productId = tx.product.id
        renewal?.renewalDate = tx.expiresDate ?? time
        renewal?.inBillingRetry = false
        renewal?.gracePeriodExpiresDate = nil
        renewal?.expirationIntent = nil
        renewal?.priceIncreaseStatus = nil
        emit("DID_RENEW", subtype, v1: v1, at: time, status: 1, random: &r)
        return true
    }

    /// A coin pack bought alongside the subscription (`ONE_TIME_CHARGE` in V2; receipt-only in V1).
    mutating func buyConsumable(at time: Int64, random r: inout SimRandom) {
        guard time < world.horizon else { return }
        sequence += 1
        let tx = SimTransaction(
            transactionId: world.transactionId(kind, index, sequence),
            originalTransactionId: world.transactionId(kind, index, sequence),
            product: world.catalog.coins100, purchaseDate: time, originalPurchaseDate: time,
            appAccountToken: token, storefront: storefront,
            price: world.catalog.coins100.price(in: storefront.currency),
            bundleId: world.bundleId)
        timeline.transactions.append(tx)
        timeline.orders.append((SimWorld.orderId(&r), [tx.transactionId]))
        if !world.isV1(time) {
            timeline.events.append(
                SimEvent(time: time + r.int64(in: 0...2_500), v2Type: "ONE_TIME_CHARGE", transaction: tx))
        }
    }

    // MARK: - Renewal state changes

    /// `DID_CHANGE_RENEWAL_STATUS` (`AUTO_RENEW_ENABLED` / `AUTO_RENEW_DISABLED`).
    mutating func setAutoRenew(_ on: Bool, at time: Int64, random r: inout SimRandom) {
        guard time < world.horizon else { hitHorizon = true; return }
        renewal?.autoRenewOn = on
        autoRenewChange = time
        emit(
            "DID_CHANGE_RENEWAL_STATUS", on ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED",
            v1: "DID_CHANGE_RENEWAL_STATUS", at: time, status: 1, random: &r)
    }

    /// `EXPIRED` at the end of the current period (or at `time`), with Apple's expiration intent.
    mutating func expire(subtype: String, intent: Int, churn: String?, at time: Int64? = nil, random r: inout SimRandom)
    {
        let when = time ?? (current.expiresDate ?? 0)
        guard when < world.horizon else { hitHorizon = true; return }
        renewal?.autoRenewOn = false
        renewal?.expirationIntent = intent
        renewal?.inBillingRetry = false
        renewal?.gracePeriodExpiresDate = nil
        // V1 said nothing when a subscription simply ran out; after billing retry it sent a status change.
        let v1: String? = intent == 2 ? "DID_CHANGE_RENEWAL_STATUS" : nil
        if intent == 2 { autoRenewChange = when }
        // Apple sometimes never delivers EXPIRED; the churn inference rule then decides.
        let lost = !world.isV1(when) && r.chance(0.08)
        emit("EXPIRED", subtype, v1: v1, at: when, status: 2, churn: churn, lost: lost, random: &r)
    }

    /// A billing failure and its outcome; returns whether the subscription recovered.
    mutating func failBilling(random r: inout SimRandom) -> Bool {
        let expires = current.expiresDate ?? 0
        let grace = r.chance(0.5)
        let graceEnd = expires + 16 * SimTime.day
        let failAt = expires + r.int64(in: SimTime.minute...(30 * SimTime.minute))
        guard failAt < world.horizon else { hitHorizon = true; return false }
        renewal?.inBillingRetry = true
        renewal?.expirationIntent = 2
        renewal?.gracePeriodExpiresDate = grace ? graceEnd : nil
        emit(
            "DID_FAIL_TO_RENEW", grace ? "GRACE_PERIOD" : nil, v1: "DID_FAIL_TO_RENEW", at: failAt,
            status: grace ? 4 : 3, random: &r)
        let roll = r.weighted([grace ? 0.35 : 0, 0.30, 0.35])
        if roll == 0 {
            let at = expires + r.int64(in: SimTime.day...(15 * SimTime.day))
            guard renew(at: at, v1: "DID_RECOVER", random: &r) else {
                timeline.billingOutcomes.append("pending"); return false
            }
            timeline.billingOutcomes.append("recovered_in_grace")
            return true
        }
        if grace {
            guard graceEnd < world.horizon else {
                hitHorizon = true; timeline.billingOutcomes.append("pending"); return false
            }
            renewal?.gracePeriodExpiresDate = nil
            emit(
                "GRACE_PERIOD_EXPIRED", nil, v1: nil, at: graceEnd + r.int64(in: 0...SimTime.hour), status: 3,
                random: &r)
        }
        if roll == 1 {
            let at = expires + r.int64(in: (17 * SimTime.day)...(58 * SimTime.day))
            guard renew(at: at, subtype: "BILLING_RECOVERY", v1: "DID_RECOVER", random: &r) else {
                timeline.billingOutcomes.append("pending")
                return false
            }
            timeline.billingOutcomes.append("recovered")
            return true
        }
        expire(subtype: "BILLING_RETRY", intent: 2, churn: "billing_error", at: expires + 60 * SimTime.day, random: &r)
        timeline.billingOutcomes.append(hitHorizon ? "pending" : "expired")
        return false
    }

    /// `PRICE_INCREASE/PENDING`, then declined (`EXPIRED/PRICE_INCREASE`) or accepted; returns whether it renews.
    mutating func priceIncrease(random r: inout SimRandom) -> Bool {
        let expires = current.expiresDate ?? 0
        let notice = expires - r.int64(in: (10 * SimTime.day)...(25 * SimTime.day))
        guard notice > current.purchaseDate, notice < world.horizon else {
            hitHorizon = notice >= world.horizon; return false
        }
        renewal?.priceIncreaseStatus = 0
        emit("PRICE_INCREASE", "PENDING", v1: "PRICE_INCREASE_CONSENT", at: notice, status: 1, random: &r)
        if r.chance(0.6) {
            expire(subtype: "PRICE_INCREASE", intent: 3, churn: "price_increase_declined", random: &r)
            return false
        }
        renewal?.priceIncreaseStatus = 1
        emit(
            "PRICE_INCREASE", "ACCEPTED", v1: nil, at: notice + r.int64(in: SimTime.day...(5 * SimTime.day)), status: 1,
            random: &r)
        return renew(at: expires, random: &r)
    }

    // MARK: - Refunds and revocations

    /// `REFUND` of the current period (V1 `CANCEL`); when it ends the subscription, auto-renew goes off.
    mutating func refundCurrent(at time: Int64, endsSubscription: Bool, random r: inout SimRandom) {
        revoke(currentIndex, at: time, random: &r)
        if endsSubscription { renewal?.autoRenewOn = false; autoRenewChange = time }
        emit(
            "REFUND", nil, v1: "CANCEL", at: time, status: endsSubscription ? 5 : 1,
            churn: endsSubscription ? "refunded" : nil, transactionIndex: currentIndex, random: &r)
    }

    /// `REFUND` of the period before the current one: the subscription goes on.
    mutating func refundPrevious(at time: Int64, random r: inout SimRandom) {
        guard
            let previous = timeline.transactions.indices.last(where: {
                $0 < currentIndex && timeline.transactions[$0].product.type == .autoRenewable
            })
        else { return }
        revoke(previous, at: time, random: &r)
        emit("REFUND", nil, v1: "CANCEL", at: time, status: 1, transactionIndex: previous, random: &r)
    }

    /// `REVOKE`: the family organiser stopped sharing; not a refund.
    mutating func revokeFamily(at time: Int64, random r: inout SimRandom) {
        guard time < world.horizon else { hitHorizon = true; return }
        timeline.transactions[currentIndex].revocationDate = time
        timeline.transactions[currentIndex].revocationReason = 0
        timeline.transactions[currentIndex].revocationType = "FAMILY_REVOKE"
        renewal?.autoRenewOn = false
        emit("REVOKE", nil, v1: "REVOKE", at: time, status: 5, random: &r)
    }

    private mutating func revoke(_ i: Int, at time: Int64, random r: inout SimRandom) {
        var tx = timeline.transactions[i]
        tx.revocationDate = time
        tx.revocationReason = r.chance(0.3) ? 1 : 0
        if r.chance(0.6) {
            tx.revocationType = "REFUND_FULL"
        } else if let expires = tx.expiresDate, expires > tx.purchaseDate {
            // Prorated on the time left, in milli-percent.
            let left = max(Int64(1), min(expires - tx.purchaseDate, expires - time))
            tx.revocationType = "REFUND_PRORATED"
            tx.revocationPercentage = Int(max(1, left * 100_000 / (expires - tx.purchaseDate)))
        } else {
            tx.revocationType = "REFUND_FULL"
        }
        timeline.transactions[i] = tx
    }

    // MARK: - Plumbing

    mutating func finish() -> EntityTimeline {
        timeline
    }

    private mutating func newTransaction(at time: Int64, trial: Bool) -> SimTransaction {
        sequence += 1
        let id = world.transactionId(kind, index, sequence)
        let original = originalTransactionId ?? id
        let originalDate = timeline.transactions.first { $0.transactionId == original }?.purchaseDate ?? time
        let period =
            trial
            ? 7 * SimTime.day
            : SimTime.monthStart(SimTime.monthIndex(ofMillis: time) + product.periodMonths)
                - SimTime.monthStart(SimTime.monthIndex(ofMillis: time))
        return SimTransaction(
            transactionId: id, originalTransactionId: original,
            webOrderLineItemId: world.webOrderLineItemId(kind, index, sequence),
            product: product, purchaseDate: time, originalPurchaseDate: originalDate, expiresDate: time + period,
            appAccountToken: token, familyShared: familyShared, storefront: storefront,
            price: trial ? 0 : product.price(in: storefront.currency), isTrial: trial, bundleId: world.bundleId)
    }

    private mutating func append(_ tx: SimTransaction) {
        timeline.transactions.append(tx)
        currentIndex = timeline.transactions.count - 1
        if !tx.isRenewal || tx.isTrial {
            timeline.orders.append((orderIdSeed(tx), [tx.transactionId]))
        }
    }

    /// Order IDs derive from the transaction so they need no PRNG draw (keeps the event stream stable).
    private func orderIdSeed(_ tx: SimTransaction) -> String {
        var r = SimRandom(world.seed, 99, UInt64(tx.transactionId) ?? 0)
        return SimWorld.orderId(&r)
    }

    private func makeRenewal(_ tx: SimTransaction, recentStart: Int64) -> SimRenewal {
        SimRenewal(
            originalTransactionId: tx.originalTransactionId, productId: tx.product.id,
            autoRenewProductId: tx.product.id,
            renewalDate: tx.expiresDate ?? tx.purchaseDate, recentSubscriptionStartDate: recentStart,
            appAccountToken: token)
    }

    private mutating func emit(
        _ type: String, _ subtype: String?, v1: String?, at time: Int64, status: Int, churn: String? = nil,
        lost: Bool = false,
        transactionIndex: Int? = nil, random r: inout SimRandom
    ) {
        let signed = time + r.int64(in: 0...2_500)
        lastEventTime = time
        var event = SimEvent(
            time: signed, v2Type: type, v2Subtype: subtype, v1Type: v1,
            transaction: timeline.transactions[transactionIndex ?? currentIndex], renewal: renewal, status: status)
        event.lost = lost
        event.churnReason = churn
        event.autoRenewChangeDate = autoRenewChange
        if world.isV1(signed), v1 != nil {
            event.receipt = Array(
                timeline.transactions.filter { $0.purchaseDate <= signed }.sorted { $0.purchaseDate > $1.purchaseDate }
                    .prefix(100))
        }
        timeline.events.append(event)
    }
}
