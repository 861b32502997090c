/// Named counters by category, summed across chunks; the manifest is read from them.
struct Tally: Sendable {
    private(set) var counts: [String: [String: Int]] = [:]

    mutating func add(_ category: String, _ key: String, _ amount: Int = 1) {
        guard amount != 0 else { return }
        counts[category, default: [:]][key, default: 0] += amount
    }

    mutating func merge(_ other: Tally) {
        for (category, keys) in other.counts {
            for (key, amount) in keys { add(category, key, amount) }
        }
    }

    func category(_ name: String) -> [String: Int] { counts[name] ?? [:] }

    func value(_ category: String, _ key: String) -> Int { counts[category]?[key] ?? 0 }
}

/// What one chunk of customers produced, ready for the single writer.
struct ChunkOutput: Sendable {
    /// A line of a notification file, with the time it sorts by.
    struct Line: Sendable {
        let time: Int64
        let text: String
    }

    var v1Lines: [Int: [Line]] = [:]
    var v2Lines: [Int: [Line]] = [:]
    /// Notification-history items (`{"signedPayload","sendAttempts"}` JSON text).
    var historyItems: [Line] = []
    /// Refund-history entries: signed transactions by revocation date.
    var refundEntries: [Line] = []
    var orderLines: [String] = []
    var accountRows: [String] = []
    var reviewRows: [String] = []
    /// Sales and refunds as Apple books them (the financial reports), lost notifications included.
    var appleEntries: [FinanceReportWriter.Entry] = []
    var tally = Tally()
    /// Expected flagged accounts by month index.
    var flagged: [Int: [String]] = [:]
    var asOf: Int64 = 0
    var firstPurchase: Int64 = .max
    var entities = 0
}
