/// The life of one subscriber: trial, renewals, cancellations, billing trouble, price increases,
/// refunds, resubscription, family sharing, migration from V1 to V2.
struct SubscriberScript {
    let world: SimWorld
    let index: Int

    private static let month: Int64 = 30 * SimTime.day

    func run() -> EntityTimeline {
        var builder = SubscriptionBuilder(world: world, kind: .subscriber, index: index)
        var r = world.random(.subscriber, index)
        let catalog = world.catalog
        let storefront = catalog.storefront(&r)
        // Most customers carry an appAccountToken; most of those are in accounts.csv.
        if r.chance(0.6) {
            let token = r.uuid()
            builder.token = token
            if r.chance(0.7) { builder.timeline.accountRows.append((token, "acct-s" + SimTime.pad(index + 1, 7))) }
        }
        let family = r.chance(0.05)
        let veteran = !family && r.chance(0.12)
        var product = catalog.monthly
        if let withdrawal = world.legacyWithdrawal, !veteran, r.chance(0.12), withdrawal > world.windowStart {
            product = catalog.legacyMonthly
        } else if r.chance(0.22) {
            product = catalog.yearly
        }
        builder.storefront = storefront
        builder.familyShared = family
        builder.product = product

        var start: Int64
        if veteran {
            // Subscribed 13–20 months before the window: its renewals earn the 85 % rate.
            start = world.windowStart - Int64(r.int(in: 13...20)) * Self.month - r.int64(in: 0...(20 * SimTime.day))
            builder.backfill(from: start, random: &r)
        } else {
            let span = max(SimTime.day, world.horizon - world.windowStart - 20 * SimTime.day)
            start = world.windowStart + r.int64(in: 0...span)
            let trial = !family && product.periodMonths == 1 && r.chance(0.35)
            guard builder.subscribe(at: start, trial: trial, resubscribe: false, random: &r) else {
                return builder.timeline
            }
            if trial {
                guard runTrial(&builder, &r) else { return builder.timeline }
            }
        }
        // Maybe a coin pack too; in the V1 era it shows only in the receipt.
        if !family && r.chance(0.1) {
            let from = max(world.windowStart, min(start, world.horizon - SimTime.day))
            builder.buyConsumable(at: from + r.int64(in: 0...max(0, world.horizon - from)), random: &r)
        }
        runPeriods(&builder, &r)
        return builder.finish()
    }

    /// A free week that converts or lapses; returns whether the subscription goes on.
    private func runTrial(_ b: inout SubscriptionBuilder, _ r: inout SimRandom) -> Bool {
        if r.chance(0.65) { return b.renew(at: b.current.expiresDate ?? 0, random: &r) }
        let off = b.current.purchaseDate + r.int64(in: SimTime.hour...(5 * SimTime.day))
        b.setAutoRenew(false, at: off, random: &r)
        b.expire(subtype: "VOLUNTARY", intent: 1, churn: nil, random: &r)
        return false
    }

    private func runPeriods(_ b: inout SubscriptionBuilder, _ r: inout SimRandom) {
        var periods = 0
        while periods < 400, !b.hitHorizon {
            periods += 1
            let tx = b.current
            let expires = tx.expiresDate ?? world.horizon
            if expires >= world.horizon { return }
            if b.familyShared {
                if r.chance(0.12) {
                    b.revokeFamily(at: tx.purchaseDate + r.int64(in: SimTime.day...(20 * SimTime.day)), random: &r)
                    return
                }
                guard b.renew(at: expires, random: &r) else { return }
                continue
            }
            if let withdrawal = world.legacyWithdrawal, tx.product.id == world.catalog.legacyMonthly.id,
                expires >= withdrawal
            {
                b.expire(subtype: "PRODUCT_NOT_FOR_SALE", intent: 4, churn: "product_unavailable", random: &r)
                return
            }
            let yearly = tx.product.periodMonths == 12
            let roll = r.weighted([
                0.03,  // refund ends it
                yearly ? 0.25 : 0.06,  // voluntary
                0.05,  // billing failure
                world.isV1(expires) || yearly ? 0 : 0.04,  // price increase
                0.02,  // refund of a period, subscription goes on
                0.01,  // auto-renew off, then on again
                yearly ? 0.70 : 0.79,  // plain renewal
            ])
            var churned = false
            switch roll {
            case 0:
                let when = tx.purchaseDate + r.int64(in: SimTime.day...(10 * SimTime.day))
                if when >= world.horizon { return }
                b.refundCurrent(at: when, endsSubscription: true, random: &r)
                churned = true
            case 1:
                b.setAutoRenew(
                    false,
                    at: tx.purchaseDate
                        + r.int64(in: SimTime.hour...max(SimTime.hour, expires - tx.purchaseDate - SimTime.hour)),
                    random: &r)
                b.expire(subtype: "VOLUNTARY", intent: 1, churn: "customer_canceled", random: &r)
                churned = true
            case 2:
                churned = !b.failBilling(random: &r)
            case 3:
                churned = !b.priceIncrease(random: &r)
            case 4:
                guard b.renew(at: expires, random: &r) else { return }
                let when = b.current.purchaseDate + r.int64(in: SimTime.hour...(5 * SimTime.day))
                if when < world.horizon { b.refundPrevious(at: when, random: &r) }
                continue
            case 5:
                let off = tx.purchaseDate + r.int64(in: SimTime.hour...(5 * SimTime.day))
                b.setAutoRenew(false, at: off, random: &r)
                b.setAutoRenew(true, at: off + r.int64(in: SimTime.hour...(3 * SimTime.day)), random: &r)
                guard b.renew(at: expires, random: &r) else { return }
            default:
                guard b.renew(at: expires, random: &r) else { return }
            }
            if churned {
                // Some come back: SUBSCRIBED/RESUBSCRIBE on the same originalTransactionId.
                guard !b.hitHorizon, r.chance(0.2) else { return }
                let back = b.lastEventTime + r.int64(in: (10 * SimTime.day)...(90 * SimTime.day))
                guard b.subscribe(at: back, trial: false, resubscribe: true, random: &r) else { return }
            }
        }
    }
}
