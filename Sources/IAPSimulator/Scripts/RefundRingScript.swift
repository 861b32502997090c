/// A refund ring: a handful of accounts that buy coin packs in a burst, then ask for their money back.
struct RefundRingScript {
    let world: SimWorld
    let index: Int

    /// Members per ring are numbered in blocks of 8 so account IDs stay unique without coordination.
    static let maxMembers = 8

    func run() -> EntityTimeline {
        var b = OneTimePurchaseBuilder(world: world, kind: .ring, index: index)
        var r = world.random(.ring, index)
        let catalog = world.catalog
        let storefront = catalog.storefront(&r)
        // Bursts land in the V2 era, most of them in the last three months so the final month flags them.
        let eraStart = min(world.v2Start, world.windowStart + (world.horizon - world.windowStart) / 2)
        let lateStart = max(eraStart, world.horizon - 75 * SimTime.day)
        let lateEnd = max(lateStart + SimTime.day, world.horizon - 20 * SimTime.day)
        var burst = r.chance(0.7)
            ? lateStart + r.int64(in: 0...(lateEnd - lateStart))
            : eraStart + r.int64(in: 0...max(SimTime.day, world.horizon - 20 * SimTime.day - eraStart))
        // The first ring strikes during the outage: its refunds are known only to the refund lookups.
        if index == 0, let outage = world.outage {
            burst = max(eraStart, outage.lowerBound - 2 * SimTime.day)
        }
        let members = r.int(in: 3...6)
        for member in 0..<members {
            let accountId = "acct-ring-" + SimTime.pad(index * Self.maxMembers + member + 1, 4)
            var tokens: [String?] = []
            switch r.weighted([0.7, 0.15, 0.15]) {
            case 0:
                // Mapped in accounts.csv; some members use two devices (two tokens, one account).
                let count = r.chance(0.15) ? 2 : 1
                for _ in 0..<count {
                    let token = r.uuid()
                    tokens.append(token)
                    b.timeline.accountRows.append((token, accountId))
                }
            case 1:
                tokens.append(r.uuid())
            default:
                tokens.append(nil)
            }
            let purchases = r.int(in: 3...6)
            for p in 0..<purchases {
                let at = burst + Int64(member) * SimTime.hour + r.int64(in: 0...(4 * SimTime.day))
                let product = r.chance(0.75) ? catalog.coins500 : catalog.coins100
                let token = tokens[p % tokens.count]
                guard let i = b.buy(product, quantity: r.chance(0.8) ? 1 : 2, at: at, token: token, storefront: storefront, random: &r)
                else { continue }
                if r.chance(0.9) {
                    b.requestRefund(
                        i, requestAt: at + r.int64(in: SimTime.hour...(3 * SimTime.day)),
                        decideAfter: r.int64(in: SimTime.hour...(2 * SimTime.day)), askConsumption: r.chance(0.8),
                        grant: r.chance(0.8), reverse: false, random: &r)
                }
            }
        }
        return b.timeline
    }
}
