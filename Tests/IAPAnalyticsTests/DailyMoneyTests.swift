import IAPAnalytics
import IAPStore
import IAPTestSupport
import Testing

/// The `daily_money` mart (the pages' money in one reporting currency): each sale on the UTC day of its purchase and
/// each refund on the UTC day of its refund, summed by day and currency.
@Suite("daily_money")
struct DailyMoneyTests {
    /// The mart sums by day number before it writes days as text: the last and first millisecond of a day fall on
    /// their own days, and so does an instant before 1970, whose day number rounds down, not toward zero. On both
    /// engines.
    @Test(arguments: StoreKind.allCases)
    func everyMovementFallsOnItsUTCDayAtEachEdge(engine: StoreKind) throws {
        let store = try engine.freshStore()
        let scenario = try Scenario(engine: store)
        let lastOfDay = at("2026-03-02") - 1
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-03-05"), Txn.consumable("a", purchase: lastOfDay, price: 1_000))
        scenario.notify(
            "ONE_TIME_CHARGE", at: at("2026-03-05"), Txn.consumable("b", purchase: lastOfDay + 1, price: 2_000))
        scenario.notify(
            "REFUND", at: at("2026-03-05"),
            Txn.consumable("c", purchase: lastOfDay + 1, price: 4_000).revoked(at: at("2026-03-04") + 12 * 3_600_000))
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-03-05"), Txn.consumable("d", purchase: -1, price: 8_000))
        _ = try scenario.report()
        let rows = try store.read { connection in
            try connection.rows("select day, currency, gross_milli, refunded_milli from daily_money order by day").map {
                [$0[0].text ?? "", $0[1].text ?? "", String($0[2].integer ?? 0), String($0[3].integer ?? 0)]
            }
        }
        #expect(
            rows == [
                ["1969-12-31", "USD", "8000", "0"],
                ["2026-03-01", "USD", "1000", "0"],
                ["2026-03-02", "USD", "6000", "0"],
                ["2026-03-04", "USD", "0", "4000"],
            ])
    }
}
