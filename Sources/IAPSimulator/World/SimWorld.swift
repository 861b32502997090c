/// The fixed facts of one simulation, derived once from the options and shared by every chunk.
struct SimWorld: Sendable {
    let seed: UInt64
    let bundleId: String
    let appAppleId: Int64
    let catalog: Catalog
    let noise: Bool
    let counts: (subscribers: Int, buyers: Int, rings: Int)

    /// Month indexes of the window, `firstMonth ..< endMonth`.
    let firstMonth: Int
    let endMonth: Int
    let windowStart: Int64
    let windowEnd: Int64
    /// No customer event happens at or after this instant (lookups are fetched after it).
    let horizon: Int64
    /// First instant of the V2 era (`windowEnd` when the whole window is V1).
    let v2Start: Int64
    /// When `…monthly_legacy` is withdrawn from sale (nil if never inside the V2 era).
    let legacyWithdrawal: Int64?
    /// Notifications signed in `outage` were never delivered to the webhook.
    let outage: Range<Int64>?
    /// Get Notification History was asked for this span (around the outage).
    let historyWindow: Range<Int64>?
    /// Get Refund History pages cover refunds from this instant on.
    let refundLookupStart: Int64
    /// When the lookups were made: their `signedDate`s start here.
    let lookupTime: Int64

    init(options: SimulationOptions) {
        seed = options.seed
        bundleId = options.bundleId
        appAppleId = options.appAppleId
        catalog = Catalog(bundleId: options.bundleId)
        noise = options.noise
        counts = (options.subscribers, options.consumableBuyers, options.refundRings)
        let first = SimTime.monthIndex(options.startMonth) ?? (2022 * 12)
        firstMonth = first
        endMonth = first + options.months
        windowStart = SimTime.monthStart(first)
        windowEnd = SimTime.monthStart(first + options.months)
        horizon = windowEnd - SimTime.day
        lookupTime = windowEnd - 12 * SimTime.hour
        let v2Month = options.v2StartMonth.flatMap(SimTime.monthIndex) ?? (first + options.months / 3)
        v2Start = SimTime.monthStart(min(max(v2Month, first), first + options.months))
        refundLookupStart = max(windowStart, windowEnd - 90 * SimTime.day)
        if v2Start < windowEnd {
            // The legacy product leaves the store two thirds of the way through the V2 era.
            legacyWithdrawal = v2Start + (windowEnd - v2Start) * 2 / 3
            // A one-week outage, 20 days before the end, inside both the V2 era and the refund lookups.
            let outageEnd = max(windowEnd - 20 * SimTime.day, min(v2Start, windowEnd) + 8 * SimTime.day)
            let outageStart = max(outageEnd - 7 * SimTime.day, max(v2Start, refundLookupStart))
            if outageStart < outageEnd && outageEnd < horizon {
                outage = outageStart..<outageEnd
                historyWindow = max(v2Start, outageStart - 3 * SimTime.day)..<min(horizon, outageEnd + 3 * SimTime.day)
            } else {
                outage = nil
                historyWindow = nil
            }
        } else {
            legacyWithdrawal = nil
            outage = nil
            historyWindow = nil
        }
    }

    /// Entity kinds, used as PRNG stream and ID namespaces.
    enum Kind: UInt64, Sendable {
        case subscriber = 1, buyer = 2, ring = 3, noise = 4
    }

    /// A 16-digit production-style transaction ID, unique per (kind, entity, sequence).
    func transactionId(_ kind: Kind, _ index: Int, _ sequence: Int) -> String {
        String(
            2_000_000_000_000_000 + Int64(kind.rawValue) * 10_000_000_000_000 + Int64(index) * 1024 + Int64(sequence))
    }

    /// A web order line item ID, unique per (kind, entity, sequence).
    func webOrderLineItemId(_ kind: Kind, _ index: Int, _ sequence: Int) -> String {
        String(
            390_000_000_000_000_000 + Int64(kind.rawValue) * 10_000_000_000_000 + Int64(index) * 1024 + Int64(sequence))
    }

    /// The per-entity PRNG.
    func random(_ kind: Kind, _ index: Int, stream: UInt64 = 0) -> SimRandom {
        SimRandom(seed, kind.rawValue, UInt64(index), stream)
    }

    /// Whether an instant is in the V1 era.
    func isV1(_ time: Int64) -> Bool { time < v2Start }

    /// An Apple-style order ID (`MK5TTTVWJH`).
    static func orderId(_ random: inout SimRandom) -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var text = "M"
        for _ in 0..<9 { text.append(alphabet[random.int(in: 0...(alphabet.count - 1))]) }
        return text
    }
}
