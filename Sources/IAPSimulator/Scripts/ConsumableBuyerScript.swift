import IAPFormats

/// An ordinary coin buyer: a few purchases over the window, an occasional refund request.
struct ConsumableBuyerScript {
    let world: SimWorld
    let index: Int

    func run() -> EntityTimeline {
        var b = OneTimePurchaseBuilder(world: world, kind: .buyer, index: index)
        var r = world.random(.buyer, index)
        let catalog = world.catalog
        let storefront = catalog.storefront(&r)
        var token: String?
        if r.chance(0.85) {
            let value = r.uuid()
            token = value
            if r.chance(0.8) { b.timeline.accountRows.append((value, "acct-c" + SimTime.pad(index + 1, 7))) }
        }
        let purchases = r.int(in: 1...5)
        var times = (0..<purchases).map { _ in world.windowStart + r.int64(in: 0...(world.horizon - world.windowStart))
        }
        times.sort()
        var boughtLifetime = false
        for time in times {
            let pick = r.weighted([0.68, 0.25, boughtLifetime ? 0 : 0.07])
            let product = [catalog.coins100, catalog.coins500, catalog.lifetime][pick]
            boughtLifetime = boughtLifetime || pick == 2
            let quantity = product.type == .consumable ? [1, 1, 1, 2, 3][r.int(in: 0...4)] : 1
            guard let i = b.buy(product, quantity: quantity, at: time, token: token, storefront: storefront, random: &r)
            else { continue }
            // Refund stories only for V2-era purchases: in V1 they would be invisible anyway.
            guard !world.isV1(time), r.chance(product.type == .consumable ? 0.14 : 0.1) else { continue }
            b.requestRefund(
                i, requestAt: time + r.int64(in: SimTime.hour...(5 * SimTime.day)),
                decideAfter: r.int64(in: (2 * SimTime.hour)...(3 * SimTime.day)), askConsumption: r.chance(0.85),
                grant: r.chance(0.65), reverse: r.chance(0.18), random: &r)
        }
        return b.timeline
    }
}
