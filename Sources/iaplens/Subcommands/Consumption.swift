import ArgumentParser
import IAPAnalytics
import IAPPipeline

struct Consumption: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Answer Apple's pending consumption requests with the app's facts and iaplens's refund-abuse evidence.",
        discussion: """
            A customer's refund request makes Apple send CONSUMPTION_REQUEST and wait \(BusinessRules.consumptionAnswerWindowHours) hours for Send Consumption Information. Every pending request (not answered, signed at most \(BusinessRules.consumptionAnswerWindowHours) hours ago, not yet refunded or declined) with a row in --facts whose customer consented is answered: the facts, and refundPreference DECLINE when the transaction's account meets a flag rule in the window before the request that the last analyze used (--window-days, default \(FlagThreshold.windowDays.defaultValue) days). Each request is answered at most once; the answer and Apple's status are kept in the store. Run it hourly.

            --facts is a CSV from the app: transaction_id,customer_consented,delivery_status,consumption_percentage,sample_content_provided

            Example:
              iaplens consumption --database iaplens.sqlite \\
                --bundle-id com.example.app --facts facts.csv \\
                --issuer-id 57246542-96fe-1a63-e053-0824d011072a \\
                --key-id 2X9R4HXF34 --private-key AuthKey_2X9R4HXF34.p8
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var log: LogOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var key: APIKeyFlags

    @Option(
        name: .long,
        help: ArgumentHelp("The app's consumption facts, CSV (see above). Config key: \"facts\".", valueName: "file"))
    var facts: String?

    @Flag(name: .customLong("dry-run"), help: "Print the bodies it would send, one JSON line each, and send nothing.")
    var dryRun = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How long the run may take, in seconds (default \(FetchSettings.defaultConsumptionDeadlineSeconds)): it holds the store's lock. Requests not tried by then stay pending for the next run. Config key: \"deadline\".",
            valueName: "seconds"))
    var deadline: Int64?

    func run() async throws {
        try await Console.runAsync(log) {
            var c = try ConfigurationBuilder.build(store: store, app: app)
            key.apply(to: &c.fetch)
            if let facts { c.fetch.facts = facts }
            if let deadline { c.fetch.consumptionDeadlineSeconds = deadline }
            try AppleOutput.printConsumption(
                try await Pipeline(configuration: c).consume(dryRun: dryRun, progress: AppleOutput.retryLine),
                dryRun: dryRun)
        }
    }
}
