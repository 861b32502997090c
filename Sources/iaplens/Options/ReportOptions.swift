import ArgumentParser
import IAPAnalytics

/// How figures are computed and which months are written.
struct ReportOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("Folder for the reports (one folder per month, index.html and index.md).", valueName: "dir"))
    var reports: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "products.csv (product_id,type,currency,price_milli): prices V1 transactions.", valueName: "file"))
    var products: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "accounts.csv (app_account_token,account_id): links purchases to your accounts.", valueName: "file"))
    var accounts: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Trust-and-safety decisions, CSV account_id,decision,reviewed_at,reviewer,note (decision: cleared, confirmed or watch): the review queue remembers them. Config key: \"reviews\".",
            valueName: "file"))
    var reviews: String?

    @Option(
        name: .customLong("reporting-currency"),
        help: ArgumentHelp(
            "The pages also show each month's money in this currency, each day at the rate of Apple's paid fiscal month that holds it (default: the bank currency of the latest paid payment summary); one that nothing converts into is warned of. Config key: \"reporting-currency\".",
            valueName: "CUR"))
    var reportingCurrency: String?

    @Flag(
        name: .customLong("small-business"),
        help: "The app is in the App Store Small Business Program: \(BusinessRules.reducedProceedsPercent) % proceeds.")
    var smallBusiness = false

    @Option(
        name: .customLong("apple-time-zone"),
        help: ArgumentHelp(
            "The time zone whose days Apple's financial reports are dated in (IANA name). Default: \(AppleTimeZone.defaultIdentifier).",
            valueName: "zone"))
    var appleTimeZone: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write only this month (YYYY-MM), repeatable; an empty month is written and says so, and one the archive has not seen (before its first notification, after the newest document) is refused.",
            valueName: "YYYY-MM"))
    var month: [String] = []

    @Option(
        name: .customLong("as-of"),
        help: ArgumentHelp(
            "The as-of time T (ISO 8601). Default: the newest accepted document's time, so reruns are identical.",
            valueName: "time"))
    var asOf: String?

    // The flag thresholds: names, defaults, ranges and help come from FlagThreshold.
    @Option(
        name: .customLong(FlagThreshold.repeatRefunds.rawValue), help: ArgumentHelp(FlagThreshold.repeatRefunds.help))
    var repeatRefunds: Int?

    @Option(name: .customLong(FlagThreshold.burstRefunds.rawValue), help: ArgumentHelp(FlagThreshold.burstRefunds.help))
    var burstRefunds: Int?

    @Option(name: .customLong(FlagThreshold.burstDays.rawValue), help: ArgumentHelp(FlagThreshold.burstDays.help))
    var burstDays: Int?

    @Option(
        name: .customLong(FlagThreshold.highRateRefunds.rawValue),
        help: ArgumentHelp(FlagThreshold.highRateRefunds.help))
    var highRateRefunds: Int?

    @Option(
        name: .customLong(FlagThreshold.highRatePercent.rawValue),
        help: ArgumentHelp(FlagThreshold.highRatePercent.help))
    var highRatePercent: Int?

    @Option(name: .customLong(FlagThreshold.windowDays.rawValue), help: ArgumentHelp(FlagThreshold.windowDays.help))
    var windowDays: Int?

    /// The thresholds given on the command line, by ``FlagThreshold``.
    var thresholds: [(FlagThreshold, Int?)] {
        [
            (.repeatRefunds, repeatRefunds), (.burstRefunds, burstRefunds), (.burstDays, burstDays),
            (.highRateRefunds, highRateRefunds), (.highRatePercent, highRatePercent), (.windowDays, windowDays),
        ]
    }
}
