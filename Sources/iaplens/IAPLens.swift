import ArgumentParser

/// `iaplens`: App Store purchase records in, finance / trust-and-safety / product reports out.
@main
struct IAPLens: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iaplens",
        abstract: "Turn App Store Server Notification archives and lookups into monthly reports.",
        discussion: """
            A scheduled batch pipeline. Each run reads what arrived since the last one into a SQLite store (every signature verified against Apple's root), derives churn, billing retry, refunds, chargeback losses, repeat-refund accounts and reconciliation, and writes CSV and Markdown per month. Reports are the same whether the data came in one run or in twenty.

            Typical daily job:
              iaplens run --input /archive --database iaplens.sqlite --reports reports \\
                --bundle-id com.example.app --app-apple-id 1234567890 --products products.csv

            Try it on simulated data: iaplens demo

            Exit codes: 0 completed, 65 completed but more than --max-quarantine-percent of the documents were quarantined, 66 no input files found, 1 failed, 64 bad usage or configuration, 73 the run lock cannot be created, 75 another run holds the store or Apple's API kept failing (retry later), 77 Apple refused the API key.
            """,
        version: IAPLensVersion.text,
        subcommands: [Run.self, Fetch.self, Ingest.self, Consumption.self, Analyze.self, Report.self, Status.self, Simulate.self, Demo.self, Reasons.self]
    )
}
