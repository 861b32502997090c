import IAPAnalytics
import IAPStore
import IAPTestSupport
import Testing

@Suite("flagged_accounts.csv")
struct FlaggedAccountsTests {
    func coin(_ id: String, _ purchase: String, token: String? = "tok-a") -> Txn {
        Txn.consumable(id, purchase: at(purchase), token: token)
    }

    @Test func repeatRefundsWindowEndsAtTheMonthEnd() throws {
        // Given three refunds: two in March, one on the last millisecond of March;
        // and a second account whose third refund is on the first millisecond of April
        let scenario = try Scenario()
        try scenario.accounts([("TOK-A", "acct-1")])
        let refunds: [(Txn, Int64)] = [
            (coin("a1", "2026-03-01"), at("2026-03-02")),
            (coin("a2", "2026-03-01"), at("2026-03-03")),
            (coin("a3", "2026-03-01"), at("2026-04-01") - 1),
            (coin("b1", "2026-03-01", token: "tok-b"), at("2026-03-02")),
            (coin("b2", "2026-03-01", token: "tok-b"), at("2026-03-03")),
            (coin("b3", "2026-03-01", token: "tok-b"), at("2026-04-01")),
        ]
        for (txn, refundTime) in refunds {
            scenario.notify("ONE_TIME_CHARGE", at: txn.fields.purchaseDate ?? 0, txn)
            scenario.notify("REFUND", at: refundTime, txn.revoked(at: refundTime))
        }
        // When
        let report = try scenario.report(
            AnalysisOptions(
                bundleId: "com.example.app", thresholds: thresholds([.burstRefunds: 99, .highRateRefunds: 99])))
        // Then acct-1 (mapped by accounts.csv) is flagged in March; tok-b only in April
        // The contract's columns (the review queue's follow them).
        #expect(
            report.rows("2026-03", "flagged_accounts.csv").map { Array($0.prefix(11)) } == [
                [
                    "acct-1", "repeat_refunds", "3", "3", "0", "3", "3", "2026-03-02T00:00:00Z", "2026-03-31T23:59:59Z",
                    "a1;a2;a3", "2026-03",
                ]
            ])
        #expect(report.rows("2026-04", "flagged_accounts.csv").map { $0[0] } == ["acct-1", "tok-b"])
    }

    @Test(arguments: [(30, true), (31, false)])
    func consumableBurstWithinThirtyDays(daysApart: Int64, isFlagged: Bool) throws {
        // Given two consumable refunds some days apart, with enough purchases to keep the rate low
        let scenario = try Scenario()
        let first = coin("c1", "2026-01-02")
        let second = coin("c2", "2026-01-03")
        for index in 0..<4 { scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-04"), coin("p\(index)", "2026-01-04")) }
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-02"), first)
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-03"), second)
        scenario.notify("REFUND", at: at("2026-01-10"), first.revoked(at: at("2026-01-10")))
        let secondRefund = at("2026-01-10") + daysApart * day
        scenario.notify("REFUND", at: secondRefund, second.revoked(at: secondRefund))
        // When
        let report = try scenario.report()
        // Then flagged in February (both refunds in its window) only when at most 30 × 24 h apart
        let rows = report.rows("2026-02", "flagged_accounts.csv")
        #expect(rows.map { $0[1] } == (isFlagged ? ["consumable_refund_burst"] : []))
    }

    /// Lifetime purchases are the paid ones purchased before the window's end: the two bought at the same
    /// millisecond, the last before the end, both count; a free one does not, nor one bought after the end. On both
    /// engines.
    @Test(arguments: StoreKind.allCases)
    func lifetimePurchasesArePaidOnesBeforeTheWindowsEnd(engine: StoreKind) throws {
        let scenario = try Scenario(engine: try engine.freshStore())
        let refunded = [coin("r1", "2026-02-01"), coin("r2", "2026-02-02")]
        let later = [coin("p1", "2026-03-28"), coin("p2", "2026-03-28"), coin("p3", "2026-04-02")]
        let free = Txn.consumable("f1", purchase: at("2026-03-25"), price: 0, token: "tok-a")
        for txn in refunded + later + [free] {
            scenario.notify("ONE_TIME_CHARGE", at: txn.fields.purchaseDate ?? 0, txn)
        }
        for (index, txn) in refunded.enumerated() {
            let refundTime = at("2026-03-0\(index + 1)")
            scenario.notify("REFUND", at: refundTime, txn.revoked(at: refundTime))
        }
        let report = try scenario.report(
            AnalysisOptions(
                bundleId: "com.example.app", thresholds: thresholds([.burstRefunds: 99, .repeatRefunds: 99])))
        // r1, r2, p1, p2: four paid purchases before April 1st, two of them refunded: a rate of one half.
        #expect(
            report.rows("2026-03", "flagged_accounts.csv").map { [$0[0], $0[1], $0[5], $0[6]] } == [
                ["tok-a", "high_refund_rate", "4", "2"]
            ])
        // April's window ends on May 1st: p3 counts too, and 2 of 5 is under one half.
        #expect(report.rows("2026-04", "flagged_accounts.csv").isEmpty)
    }

    @Test func highRefundRatePersistsInLaterMonths() throws {
        // Given two purchases and two refunds in January, then nothing until July
        let scenario = try Scenario()
        let c1 = coin("c1", "2026-01-02")
        let c2 = coin("c2", "2026-01-03")
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-02"), c1)
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-03"), c2)
        scenario.notify("REFUND", at: at("2026-01-05"), c1.revoked(at: at("2026-01-05")))
        scenario.notify("REFUND", at: at("2026-03-05"), c2.revoked(at: at("2026-03-05")))
        scenario.notify("REFUND_DECLINED", at: at("2026-03-06"), coin("c9", "2026-03-01"))
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-07-01"), coin("z", "2026-07-01", token: "someone-else"))
        // When
        let report = try scenario.report(
            AnalysisOptions(bundleId: "com.example.app", thresholds: thresholds([.burstRefunds: 99])))
        // Then (c9, declined, is a third purchase: 2 of 3 refunded) flagged from March on; in July the window columns are zero or empty
        #expect(report.rows("2026-01", "flagged_accounts.csv").isEmpty)
        #expect(
            report.rows("2026-03", "flagged_accounts.csv").map { Array($0.prefix(11)) } == [
                [
                    "tok-a", "high_refund_rate", "2", "2", "1", "3", "2", "2026-01-05T00:00:00Z",
                    "2026-03-05T00:00:00Z", "c1;c2", "2026-03",
                ]
            ])
        #expect(
            report.rows("2026-07", "flagged_accounts.csv") == [
                [
                    "tok-a", "high_refund_rate", "0", "0", "0", "3", "2", "", "", "", "2026-07", "carried", "2026-03",
                    "0", "", "",
                ]
            ])
        let timeline = try #require(report.months.first { $0.month == "2026-07" }?.flaggedTimelines.first)
        #expect(
            timeline.events.map(\.kind) == [
                "purchase", "purchase", "refund", "purchase", "refund", "refund_declined",
            ])
    }

    @Test func unlinkedAccountsAreNeverFlagged() throws {
        // Given three refunded consumables without appAccountToken
        let scenario = try Scenario()
        for index in 1...3 {
            let txn = coin("u\(index)", "2026-01-02", token: nil)
            scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-02"), txn)
            scenario.notify("REFUND", at: at("2026-01-10"), txn.revoked(at: at("2026-01-10")))
        }
        // When
        let report = try scenario.report()
        // Then nobody is flagged, and the refunds are counted as unlinked
        #expect(report.allRows("flagged_accounts.csv").isEmpty)
        #expect(report.dataQuality.unlinkedTransactions == 3)
    }

    @Test func subscriptionsWithoutTokenAreTheirOwnAccount() throws {
        // Given a subscription without token refunded three times across renewals (same originalTransactionId)
        let scenario = try Scenario()
        for index in 0..<3 {
            let start = at("2026-01-01") + Int64(index) * 10 * day
            let txn = Txn.subscription("t\(index)", original: "s1", purchase: start, expires: start + 10 * day)
            scenario.notify("DID_RENEW", at: start, txn)
            scenario.notify("REFUND", at: start + day, txn.revoked(at: start + day))
        }
        // When
        let report = try scenario.report()
        // Then sub:s1 is flagged by both lifetime and window rules
        #expect(
            report.rows("2026-01", "flagged_accounts.csv").map { $0[0...1] } == [
                ["sub:s1", "high_refund_rate;repeat_refunds"]
            ])
    }
}

/// Thresholds with `values` set and the rest at their defaults.
private func thresholds(_ values: [FlagThreshold: Int]) -> FlagThresholds {
    var thresholds = FlagThresholds()
    for (threshold, value) in values { thresholds[threshold] = value }
    return thresholds
}
