import IAPFormats

/// Builds one-time purchases (consumables, the non-consumable) and their refund stories:
/// `ONE_TIME_CHARGE`, `CONSUMPTION_REQUEST`, `REFUND`, `REFUND_DECLINED`, `REFUND_REVERSED`.
struct OneTimePurchaseBuilder {
    let world: SimWorld
    let kind: SimWorld.Kind
    let index: Int
    var timeline = EntityTimeline()
    private var sequence = 0

    static let consumptionReasons = [
        "UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER",
    ]

    init(world: SimWorld, kind: SimWorld.Kind, index: Int) {
        self.world = world
        self.kind = kind
        self.index = index
    }

    /// Records a purchase and returns its index in `timeline.transactions` (nil past the horizon).
    mutating func buy(
        _ product: Catalog.Product, quantity: Int, at time: Int64, token: String?, storefront: Catalog.Storefront,
        random r: inout SimRandom
    ) -> Int? {
        guard time < world.horizon else { return nil }
        sequence += 1
        let id = world.transactionId(kind, index, sequence)
        let tx = SimTransaction(
            transactionId: id, originalTransactionId: id, product: product, purchaseDate: time,
            originalPurchaseDate: time,
            quantity: quantity, appAccountToken: token, storefront: storefront,
            price: product.price(in: storefront.currency),
            bundleId: world.bundleId)
        timeline.transactions.append(tx)
        timeline.orders.append((SimWorld.orderId(&r), [id]))
        // Before V2, Apple sent nothing for one-time purchases.
        if !world.isV1(time) {
            timeline.events.append(
                SimEvent(time: time + r.int64(in: 0...2_500), v2Type: "ONE_TIME_CHARGE", transaction: tx))
        }
        return timeline.transactions.count - 1
    }

    /// A refund request: optionally `CONSUMPTION_REQUEST`, then `REFUND` or `REFUND_DECLINED`
    /// (and sometimes `REFUND_REVERSED` later). Returns whether a refund was granted.
    @discardableResult
    mutating func requestRefund(
        _ i: Int, requestAt: Int64, decideAfter: Int64, askConsumption: Bool, grant: Bool, reverse: Bool,
        random r: inout SimRandom
    ) -> Bool {
        let product = timeline.transactions[i].product
        var decideAt = requestAt + decideAfter
        if askConsumption && product.type == .consumable {
            guard requestAt < world.horizon else { return false }
            var event = SimEvent(
                time: requestAt, v2Type: "CONSUMPTION_REQUEST", v1Type: "CONSUMPTION_REQUEST",
                transaction: timeline.transactions[i])
            event.consumptionRequestReason = r.pick(Self.consumptionReasons)
            timeline.events.append(event)
        } else {
            decideAt = requestAt
        }
        guard decideAt < world.horizon else { return false }
        if !grant {
            // V1 had no REFUND_DECLINED.
            timeline.events.append(
                SimEvent(time: decideAt, v2Type: "REFUND_DECLINED", transaction: timeline.transactions[i]))
            return false
        }
        var tx = timeline.transactions[i]
        tx.revocationDate = decideAt
        tx.revocationReason = r.chance(0.5) ? 1 : 0
        if r.chance(0.75) {
            tx.revocationType = "REFUND_FULL"
        } else {
            tx.revocationType = "REFUND_PRORATED"
            tx.revocationPercentage = r.int(in: 20_000...95_000)
        }
        timeline.transactions[i] = tx
        timeline.events.append(SimEvent(time: decideAt, v2Type: "REFUND", v1Type: "REFUND", transaction: tx))
        if reverse, !world.isV1(decideAt) {
            let reverseAt = decideAt + r.int64(in: (5 * SimTime.day)...(30 * SimTime.day))
            if reverseAt < world.horizon {
                tx.clearRevocation()
                timeline.transactions[i] = tx
                timeline.events.append(SimEvent(time: reverseAt, v2Type: "REFUND_REVERSED", transaction: tx))
            }
        }
        return true
    }
}
