import IAPAnalytics
import IAPStore
import Testing

@Suite("consumable_losses.csv")
struct ConsumableLossesTests {
    @Test func consumptionRequestsDeclinesAndReversals() throws {
        // Given c1 refunded after a consumption request, c2 refunded with the request signed after the refund,
        // c3 declined in February, and c1's refund reversed in March
        let scenario = try Scenario()
        let c1 = Txn.consumable("c1", purchase: at("2026-01-02"))
        let c2 = Txn.consumable("c2", purchase: at("2026-01-03"))
        let c3 = Txn.consumable("c3", purchase: at("2026-01-04"))
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-02"), c1)
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-03"), c2)
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-04"), c3)
        scenario.notify("CONSUMPTION_REQUEST", at: at("2026-01-10"), c1)
        scenario.notify("REFUND", at: at("2026-01-12"), c1.revoked(at: at("2026-01-12")))
        scenario.notify("REFUND", at: at("2026-01-14"), c2.revoked(at: at("2026-01-14")))
        scenario.notify("CONSUMPTION_REQUEST", at: at("2026-01-15"), c2.revoked(at: at("2026-01-14")))
        scenario.notify("CONSUMPTION_REQUEST", at: at("2026-01-31T23:59:59Z"), c3)
        scenario.notify("REFUND_DECLINED", at: at("2026-02-01"), c3)
        scenario.notify("REFUND_REVERSED", at: at("2026-03-01"), c1.notRevoked())
        // When
        let report = try scenario.report()
        // Then January has only c2 (c1's refund was reversed: newest snapshot); the decline and reversal
        // count in the months they were signed
        #expect(
            report.rows("2026-01", "consumable_losses.csv") == [
                ["2026-01", "coins.100", "USD", "1", "1990", "1393", "0", "0", "0"]
            ])
        #expect(
            report.rows("2026-02", "consumable_losses.csv") == [
                ["2026-02", "coins.100", "USD", "0", "0", "0", "0", "1", "0"]
            ])
        #expect(
            report.rows("2026-03", "consumable_losses.csv") == [
                ["2026-03", "coins.100", "USD", "0", "0", "0", "0", "0", "1"]
            ])
    }

    @Test func refundAfterAConsumptionRequestCounts() throws {
        // Given a request signed before the refund date
        let scenario = try Scenario()
        let c1 = Txn.consumable("c1", purchase: at("2026-01-02"))
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-02"), c1)
        scenario.notify("CONSUMPTION_REQUEST", at: at("2026-01-10"), c1)
        scenario.notify("REFUND", at: at("2026-01-12"), c1.revoked(at: at("2026-01-12")))
        // When
        let report = try scenario.report()
        // Then
        #expect(
            report.rows("2026-01", "consumable_losses.csv") == [
                ["2026-01", "coins.100", "USD", "1", "1990", "1393", "1", "0", "0"]
            ])
    }
}
