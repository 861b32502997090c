import ArgumentParser

/// `iaplens fetch`'s options: the In-App Purchase API key, where pages go, and what to ask for.
struct FetchFlags: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The archive folder fetched pages are written into (under fetched/); default: the first --input. Config key: \"archive\".",
            valueName: "dir"))
    var archive: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Start of the notification-history window, ISO 8601. Default: where the last fetch of this store ended, or 180 days back (Apple keeps 180 days).",
            valueName: "time"))
    var since: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "End of the notification-history window (exclusive), ISO 8601. Default: now.", valueName: "time"))
    var until: String?

    @Option(
        name: .customLong("refund-history"),
        help: ArgumentHelp(
            "all (default): the refund history of every customer the store or this fetch knows, from where the last fetch left each; none: only --transaction-ids.",
            valueName: "all|none"))
    var refundHistory: String?

    @Option(
        name: .customLong("transaction-ids"),
        help: ArgumentHelp(
            "A file of transaction IDs, one per line: customers whose refund history to get even if the store does not know them.",
            valueName: "file"))
    var transactionIds: String?

    @Option(
        name: .customLong("order-ids"),
        help: ArgumentHelp(
            "A file of order IDs (from customers' receipts), one per line, to look up; each is looked up once.",
            valueName: "file"))
    var orderIds: String?
}
