import IAPFormats

/// What the pipeline will be able to know about one customer's transactions: for each transaction the
/// newest snapshot among the documents actually written (lost notifications excluded), as Documentation/Reports.md's
/// "greatest document time wins" rule picks it. Expectations are computed from this, not from intent.
struct VisibilityLedger {
    private struct Entry {
        var docTime: Int64
        var snapshot: SimTransaction
        var refundNotified = false
    }

    private var entries: [String: Entry] = [:]
    private var order: [String] = []

    /// Records that a document of time `docTime` carried `tx`.
    mutating func saw(_ tx: SimTransaction, at docTime: Int64, inNotification: Bool) {
        if var entry = entries[tx.transactionId] {
            if docTime >= entry.docTime {
                entry.docTime = docTime
                entry.snapshot = tx
            }
            if inNotification && tx.revocationDate != nil { entry.refundNotified = true }
            entries[tx.transactionId] = entry
        } else {
            entries[tx.transactionId] = Entry(
                docTime: docTime, snapshot: tx, refundNotified: inNotification && tx.revocationDate != nil)
            order.append(tx.transactionId)
        }
    }

    /// The winning snapshots, in first-seen order.
    var snapshots: [(tx: SimTransaction, refundNotified: Bool)] {
        order.compactMap { id in entries[id].map { ($0.snapshot, $0.refundNotified) } }
    }

    /// Adds this customer's refund counts and flagged accounts to `output`.
    func tallyExpectations(
        world: SimWorld, accountRows: [(token: String, accountId: String)], into output: inout ChunkOutput
    ) {
        struct Activity {
            var refunds: [(date: Int64, consumable: Bool)] = []
            var purchases: [Int64] = []
        }
        var accounts: [String: Activity] = [:]
        var accountOrder: [String] = []
        for (tx, notified) in snapshots {
            output.firstPurchase = min(output.firstPurchase, tx.purchaseDate)
            let account = Self.account(of: tx, rows: accountRows)
            if let account, accounts[account] == nil {
                accounts[account] = Activity()
                accountOrder.append(account)
            }
            if tx.isPaid, let account { accounts[account]?.purchases.append(tx.purchaseDate) }
            guard tx.isRefund, let date = tx.revocationDate else { continue }
            output.tally.add("refunds", "total")
            output.tally.add("refunds", notified ? "fromNotifications" : "lookupsOnly")
            if tx.product.type == .consumable { output.tally.add("refunds", "consumable") }
            output.tally.add("refundsByMonth", SimTime.monthText(SimTime.monthIndex(ofMillis: date)))
            if let account { accounts[account]?.refunds.append((date, tx.product.type == .consumable)) }
        }
        for account in accountOrder {
            guard let activity = accounts[account], !activity.refunds.isEmpty else { continue }
            var highRateHeld = false
            for month in world.firstMonth..<world.endMonth {
                let end = SimTime.monthStart(month + 1)
                let start = end - 90 * SimTime.day
                let inWindow = activity.refunds.filter { $0.date >= start && $0.date < end }
                let repeatRefunds = inWindow.count >= 3
                let consumableDates = inWindow.filter(\.consumable).map(\.date).sorted()
                var burst = false
                for i in consumableDates.indices.dropFirst()
                where consumableDates[i] - consumableDates[i - 1] <= 30 * SimTime.day {
                    burst = true
                }
                let lifetimeRefunds = activity.refunds.filter { $0.date < end }.count
                let lifetimePurchases = activity.purchases.filter { $0 < end }.count
                if lifetimeRefunds >= 2 && lifetimeRefunds * 2 >= lifetimePurchases { highRateHeld = true }
                if repeatRefunds || burst || highRateHeld { output.flagged[month, default: []].append(account) }
            }
        }
    }

    /// Documentation/Reports.md's account of a transaction: mapped token, else the token, else `sub:<otid>` for subscriptions.
    static func account(of tx: SimTransaction, rows: [(token: String, accountId: String)]) -> String? {
        if let token = tx.appAccountToken {
            return rows.first { $0.token == token }?.accountId ?? token.lowercased()
        }
        return tx.product.type == .autoRenewable ? "sub:" + tx.originalTransactionId : nil
    }
}
