/// A refund ring: a handful of accounts that buy coin packs in a burst, then ask for their money back.
struct RefundRingScript {
    let world: SimWorld
    let index: Int

    /// Members per ring are numbered in blocks of 8 so account IDs stay unique without coordination.
    static let maxMembers = 8

    /// The ring whose first member comes back: a reviewer clears the account two weeks after its burst (a row of
    /// `reviews.csv`), and six weeks after the burst it buys and asks for refunds again, so the review queue shows it
    /// again, as active (Documentation/Reports.md "The review queue").
    static let returningRing = 1
    static let clearedAfter = 14 * SimTime.day
    static let returnsAfter = 45 * SimTime.day

    func run() -> EntityTimeline {
        var b = OneTimePurchaseBuilder(world: world, kind: .ring, index: index)
        var r = world.random(.ring, index)
        let catalog = world.catalog
        let storefront = catalog.storefront(&r)
        // Bursts land in the V2 era, most of them in the last three months so the final month flags them.
        let eraStart = min(world.v2Start, world.windowStart + (world.horizon - world.windowStart) / 2)
        let lateStart = max(eraStart, world.horizon - 75 * SimTime.day)
        let lateEnd = max(lateStart + SimTime.day, world.horizon - 20 * SimTime.day)
        var burst =
            r.chance(0.7)
            ? lateStart + r.int64(in: 0...(lateEnd - lateStart))
            : eraStart + r.int64(in: 0...max(SimTime.day, world.horizon - 20 * SimTime.day - eraStart))
        // The first ring strikes during the outage: its refunds are known only to the refund lookups.
        if index == 0, let outage = world.outage {
            burst = max(eraStart, outage.lowerBound - 2 * SimTime.day)
        }
        // The returning ring strikes early enough to come back before the archive ends.
        let returns = index == Self.returningRing && world.horizon - 80 * SimTime.day >= eraStart
        if returns { burst = world.horizon - 80 * SimTime.day }
        let members = r.int(in: 3...6)
        for member in 0..<members {
            let accountId = "acct-ring-" + SimTime.pad(index * Self.maxMembers + member + 1, 4)
            var tokens: [String?] = []
            let mapping = r.weighted([0.7, 0.15, 0.15])
            // The member who comes back is mapped in accounts.csv, so the reviewer knows it by its account ID.
            switch returns && member == 0 ? 0 : mapping {
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
                guard
                    let i = b.buy(
                        product, quantity: r.chance(0.8) ? 1 : 2, at: at, token: token, storefront: storefront,
                        random: &r)
                else { continue }
                // The member who comes back has every refund of its first burst granted, so it is flagged then.
                let comesBack = returns && member == 0
                if r.chance(0.9) || comesBack {
                    b.requestRefund(
                        i, requestAt: at + r.int64(in: SimTime.hour...(3 * SimTime.day)),
                        decideAfter: r.int64(in: SimTime.hour...(2 * SimTime.day)), askConsumption: r.chance(0.8),
                        grant: r.chance(0.8) || comesBack, reverse: false, random: &r)
                }
            }
            if returns && member == 0 {
                comeBack(accountId, token: tokens[0], burst: burst, storefront: storefront, into: &b)
            }
        }
        return b.timeline
    }

    /// The returning member: cleared by a reviewer after its burst, then two or three purchases refunded again.
    private func comeBack(
        _ accountId: String, token: String?, burst: Int64, storefront: Catalog.Storefront,
        into b: inout OneTimePurchaseBuilder
    ) {
        var r = world.random(.ring, index, stream: 1)
        let reviewedAt = (burst + Self.clearedAfter) / SimTime.day * SimTime.day
        b.timeline.reviewRows.append(
            "\(accountId),cleared,\(SimTime.iso8601(reviewedAt)),sam,\"first refunds look accidental; cleared\"")
        let back = burst + Self.returnsAfter
        for p in 0..<r.int(in: 2...3) {
            let at = back + Int64(p) * 3 * SimTime.hour
            guard
                let i = b.buy(
                    world.catalog.coins500, quantity: 1, at: at, token: token, storefront: storefront, random: &r)
            else { continue }
            _ = b.requestRefund(
                i, requestAt: at + SimTime.day, decideAfter: SimTime.day, askConsumption: true, grant: true,
                reverse: false,
                random: &r)
        }
    }
}
