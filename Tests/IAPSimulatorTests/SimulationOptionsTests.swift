import IAPSimulator
import Testing

@Suite struct SimulationOptionsTests {
    @Test func defaultsAreValid() throws {
        try SimulationOptions().validate()
    }

    @Test(arguments: [
        ("--subscribers", "--subscribers must be between 0 and 5000000 (got -3)."),
        ("--consumable-buyers", "--consumable-buyers must be between 0 and 5000000 (got 5000001)."),
        ("--refund-rings", "--refund-rings must be between 0 and 10000 (got 10001)."),
        ("--months", "--months must be between 1 and 120 (got 0)."),
        ("--shards", "--shards must be between 1 and 64 (got 0)."),
        ("--start-month", "--start-month must be a month written YYYY-MM from 1970-01 (got 2022-13)."),
        (
            "--v2-start-month",
            "--v2-start-month must be a month written YYYY-MM between 2022-01 and 2023-01 (got 2021-12)."
        ),
        ("--bundle-id", "--bundle-id must be a non-empty bundle identifier without spaces, quotes or commas (got )."),
        ("--app-apple-id", "--app-apple-id must be between 1 and 9223372036854775807 (got 0)."),
    ])
    func outOfRangeOptionsNameTheOptionAndRange(option: String, message: String) {
        var options = SimulationOptions()
        switch option {
        case "--subscribers": options.subscribers = -3
        case "--consumable-buyers": options.consumableBuyers = 5_000_001
        case "--refund-rings": options.refundRings = 10_001
        case "--months": options.months = 0
        case "--shards": options.shards = 0
        case "--start-month": options.startMonth = "2022-13"
        case "--v2-start-month": options.v2StartMonth = "2021-12"
        case "--bundle-id": options.bundleId = ""
        default: options.appAppleId = 0
        }
        #expect(throws: SimulationOptionError(option: option, message: message)) { try options.validate() }
    }

    @Test func v2StartMayBeTheMonthAfterTheLast() throws {
        var options = SimulationOptions()
        options.v2StartMonth = "2023-01"
        try options.validate()
    }
}
