import ArgumentParser
import IAPSimulator

/// The simulator's knobs as flags (the names its validation messages use).
struct SimulationFlags: ParsableArguments {
    @Option(help: "Seed of the simulation: the same seed writes byte-identical files.")
    var seed: UInt64 = 42
    @Option(help: "Subscribers of auto-renewable subscriptions (0…5,000,000).")
    var subscribers: Int = 200
    @Option(name: .customLong("consumable-buyers"), help: "Buyers of consumables (0…5,000,000).")
    var consumableBuyers: Int = 100
    @Option(
        name: .customLong("refund-rings"),
        help: "Refund rings: accounts that buy, spend and refund in bursts (0…10,000).")
    var refundRings: Int = 3
    @Option(name: .customLong("start-month"), help: "First month (YYYY-MM).")
    var startMonth: String = "2022-01"
    @Option(help: "Number of months (1…120).")
    var months: Int = 12
    @Option(
        name: .customLong("v2-start-month"), help: "First month of V2 notifications (default: a third of the way in).")
    var v2StartMonth: String?
    @Flag(
        name: .customLong("no-noise"),
        help: "Leave out duplicates, forgeries, broken lines, sandbox, TEST and other-app documents.")
    var noNoise = false
    @Option(help: "Worker threads (1…64); the output does not depend on it.")
    var shards: Int = 2

    var options: SimulationOptions {
        var options = SimulationOptions()
        options.seed = seed
        options.subscribers = subscribers
        options.consumableBuyers = consumableBuyers
        options.refundRings = refundRings
        options.startMonth = startMonth
        options.months = months
        options.v2StartMonth = v2StartMonth
        options.noise = !noNoise
        options.shards = shards
        return options
    }
}
