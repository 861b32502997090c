import ArgumentParser

/// How figures are computed and which months are written.
struct ReportOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Folder for the reports (one folder per month + index.md).", valueName: "dir"))
    var reports: String?

    @Option(name: .long, help: ArgumentHelp("products.csv (product_id,type,currency,price_milli): prices V1 transactions.", valueName: "file"))
    var products: String?

    @Option(name: .long, help: ArgumentHelp("accounts.csv (app_account_token,account_id): links purchases to your accounts.", valueName: "file"))
    var accounts: String?

    @Flag(name: .customLong("small-business"), help: "The app is in the App Store Small Business Program: 85 % proceeds.")
    var smallBusiness = false

    @Option(name: .long, help: ArgumentHelp("Write only this month (YYYY-MM), repeatable; an empty month is written and says so.", valueName: "YYYY-MM"))
    var month: [String] = []

    @Option(name: .customLong("as-of"), help: ArgumentHelp(
        "The as-of time T (ISO 8601). Default: the newest accepted document's time, so reruns are identical.",
        valueName: "time"))
    var asOf: String?

    @Option(name: .customLong("repeat-refunds"), help: "repeat_refunds: refunds in the 90-day window (default 3).")
    var repeatRefunds: Int?

    @Option(name: .customLong("burst-refunds"), help: "consumable_refund_burst: consumable refunds close together (default 2).")
    var burstRefunds: Int?

    @Option(name: .customLong("burst-days"), help: "consumable_refund_burst: at most this many days apart (default 30).")
    var burstDays: Int?

    @Option(name: .customLong("high-rate-refunds"), help: "high_refund_rate: minimum lifetime refunds (default 2).")
    var highRateRefunds: Int?

    @Option(name: .customLong("high-rate-percent"), help: "high_refund_rate: refunds as % of purchases (default 50).")
    var highRatePercent: Int?

    @Option(name: .customLong("window-days"), help: "Flag window length in days, ending at the month's end (default 90).")
    var windowDays: Int?
}
