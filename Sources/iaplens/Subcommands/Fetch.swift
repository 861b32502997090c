import ArgumentParser
import IAPPipeline

struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Get what the archive lacks from Apple: notification history, refund history, order lookups, financial reports.",
        discussion: """
            Each page Apple answers is written into the archive (under fetched/) in the shapes ingest reads; the store records where each endpoint stands, so the next fetch asks only for what is new and a stopped one resumes. Run ingest (or run) afterwards.

            Example:
              iaplens fetch --archive /archive --database iaplens.sqlite \\
                --bundle-id com.example.app \\
                --issuer-id 57246542-96fe-1a63-e053-0824d011072a \\
                --key-id 2X9R4HXF34 --private-key AuthKey_2X9R4HXF34.p8

            With an App Store Connect API key (--connect-issuer-id, --connect-key-id, --connect-private-key, --vendor-number), it also downloads Apple's financial reports (FINANCE_DETAIL, region Z1) of every fiscal month the store's data spans, once each, under fetched/finance/; ingest reads them beside the archive. Either key may be given alone.

            Exit codes: 0 done, 64 a missing or wrong option or key file, 75 Apple kept failing (try later), 77 Apple refused the key.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var log: LogOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var key: APIKeyFlags
    @OptionGroup var flags: FetchFlags
    @OptionGroup var connect: ConnectFlags

    func run() async throws {
        try await Console.runAsync(log) {
            var c = try ConfigurationBuilder.build(store: store, app: app)
            if let value = flags.archive { c.fetch.archive = value }
            key.apply(to: &c.fetch)
            connect.apply(to: &c.fetch)
            if let value = flags.since { c.fetch.since = value }
            if let value = flags.until { c.fetch.until = value }
            if let value = flags.refundHistory { c.fetch.refundHistory = value }
            if let value = flags.transactionIds { c.fetch.transactionIds = value }
            if let value = flags.orderIds { c.fetch.orderIds = value }
            AppleOutput.printFetch(
                try await Pipeline(configuration: c).fetch(
                    progress: AppleOutput.fetchProgress(), retried: AppleOutput.retryLine))
        }
    }
}
