import ArgumentParser

/// `iaplens fetch`'s options: the In-App Purchase API key, where pages go, and what to ask for.
struct FetchFlags: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The archive folder fetched pages are written into (under fetched/); default: the first --input. Config key: \"archive\".",
        valueName: "dir"))
    var archive: String?

    @Option(name: .customLong("issuer-id"), help: ArgumentHelp("Your issuer ID (App Store Connect → Users and Access → Integrations).", valueName: "uuid"))
    var issuerId: String?

    @Option(name: .customLong("key-id"), help: ArgumentHelp("The In-App Purchase key's ID (the XXXX of AuthKey_XXXX.p8).", valueName: "id"))
    var keyId: String?

    @Option(name: .customLong("private-key"), help: ArgumentHelp(
        "The key file AuthKey_XXXX.p8 App Store Connect let you download once. Keep it mode 600; it never reaches logs, the store or reports.",
        valueName: "file"))
    var privateKey: String?

    @Option(name: .customLong("api-url"), help: ArgumentHelp(
        "Another base URL for the App Store Server API (a proxy, a test server). Default: Apple's, for --environment.",
        valueName: "url"))
    var apiURL: String?

    @Option(name: .long, help: ArgumentHelp(
        "Start of the notification-history window, ISO 8601. Default: where the last fetch of this store ended, or 180 days back (Apple keeps 180 days).",
        valueName: "time"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("End of the notification-history window (exclusive), ISO 8601. Default: now.", valueName: "time"))
    var until: String?

    @Option(name: .customLong("refund-history"), help: ArgumentHelp(
        "all (default): the refund history of every customer the store or this fetch knows, from where the last fetch left each; none: only --transaction-ids.",
        valueName: "all|none"))
    var refundHistory: String?

    @Option(name: .customLong("transaction-ids"), help: ArgumentHelp(
        "A file of transaction IDs, one per line: customers whose refund history to get even if the store does not know them.",
        valueName: "file"))
    var transactionIds: String?

    @Option(name: .customLong("order-ids"), help: ArgumentHelp(
        "A file of order IDs (from customers' receipts), one per line, to look up; each is looked up once.", valueName: "file"))
    var orderIds: String?
}
