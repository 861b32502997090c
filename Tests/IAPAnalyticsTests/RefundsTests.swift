import IAPAnalytics
import IAPStore
import Testing

@Suite("refunds.csv")
struct RefundsTests {
    let coins = Txn.consumable("c1", purchase: at("2026-01-05"), price: 1_990)

    @Test func proratedRefundRoundsHalfUp() throws {
        // Given a 9.99 subscription refunded at 33.333 % (9990 × 33333 = 332 996 670 → 3329.9667 → 3330)
        // and a 1.99 consumable refunded at 50 % (1990 × 50000 / 100000 = 995 exactly)
        let scenario = try Scenario()
        let t1 = Txn.subscription("t1", original: "s1", purchase: at("2026-01-01"), expires: at("2026-02-01"))
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        scenario.notify("REFUND", at: at("2026-01-10"), t1.revoked(at: at("2026-01-10"), percentage: 33_333))
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-05"), coins)
        scenario.notify("REFUND", at: at("2026-01-12"), coins.revoked(at: at("2026-01-12"), percentage: 50_000))
        // When
        let report = try scenario.report()
        // Then
        #expect(
            report.rows("2026-01", "refunds.csv") == [
                ["2026-01", "auto_renewable", "pro.monthly", "USD", "1", "3330", "1", "0", "0"],
                ["2026-01", "consumable", "coins.100", "USD", "1", "995", "1", "0", "0"],
            ])
    }

    @Test func reversedRefundClearsAndARefundAgainCounts() throws {
        // Given a refund (Jan 10), its reversal (Jan 20), and a refund again known only from refund history (Feb 3)
        let scenario = try Scenario()
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-05"), coins)
        scenario.notify("REFUND", at: at("2026-01-10"), coins.revoked(at: at("2026-01-10")))
        scenario.notify("REFUND_REVERSED", at: at("2026-01-20"), coins.notRevoked())
        // When only the reversal is known
        let reversed = try scenario.report()
        // Then there is no refund at all
        #expect(reversed.allRows("refunds.csv").isEmpty)
        #expect(
            reversed.rows("2026-01", "consumable_losses.csv") == [
                ["2026-01", "coins.100", "USD", "0", "0", "0", "0", "0", "1"]
            ])

        // When it is refunded again (lookup only)
        scenario.refundHistory(at: at("2026-02-03"), coins.revoked(at: at("2026-02-03")))
        let again = try scenario.report()
        // Then one refund in February, found by lookups only (the notification reported another revocation)
        #expect(
            again.allRows("refunds.csv") == [["2026-02", "consumable", "coins.100", "USD", "1", "1990", "0", "1", "0"]])
    }

    @Test func familySharedRevokeIsNotARefund() throws {
        // Given a family-shared subscription revoked (REVOKE)
        let scenario = try Scenario()
        let shared = Txn.subscription("f1", original: "fs1", purchase: at("2026-01-01"), expires: at("2026-02-01"))
            .familyShared()
        scenario.notify("SUBSCRIBED", at: at("2026-01-01"), shared)
        scenario.notify("REVOKE", at: at("2026-01-15"), shared.revoked(at: at("2026-01-15")))
        // When
        let report = try scenario.report()
        // Then no refund, no sale, no churn
        #expect(report.allRows("refunds.csv").isEmpty)
        #expect(report.allRows("reconciliation.csv").isEmpty)
        #expect(report.allRows("churn.csv").isEmpty)
    }

    @Test func refundFromLookupsOnlyAndUnpriced() throws {
        // Given a V1 purchase without a catalog row refunded per an order lookup,
        // and a consumable refund from refund history
        let scenario = try Scenario()
        let v1 = Txn.v1("v1t", original: "v1t", product: "gems.legacy", purchase: at("2026-01-02"))
        scenario.notifyV1("CONSUMPTION_REQUEST", at: at("2026-01-02"), original: "v1t", transactions: [v1])
        scenario.orderLookup("ORD1", at: at("2026-01-25"), [v1.revoked(at: at("2026-01-24"))])
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-05"), coins)
        scenario.refundHistory(at: at("2026-01-30"), coins.revoked(at: at("2026-01-29")))
        // When
        let report = try scenario.report()
        // Then both are from lookups only; the V1 one is unpriced with currency XXX
        #expect(
            report.rows("2026-01", "refunds.csv") == [
                ["2026-01", "consumable", "coins.100", "USD", "1", "1990", "0", "1", "0"],
                ["2026-01", "unknown", "gems.legacy", "XXX", "1", "0", "0", "1", "1"],
            ])
        #expect(report.dataQuality.unpricedTransactions == 1)
    }
}
