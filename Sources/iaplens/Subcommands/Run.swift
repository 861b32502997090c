import ArgumentParser
import IAPPipeline

struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ingest, analyze and report in one go: what a scheduled job runs.",
        discussion: """
            Example:
              iaplens run --input archive/ --database iaplens.sqlite --reports reports \\
                          --bundle-id com.example.app --app-apple-id 1234567890 \\
                          --products products.csv --accounts accounts.csv

            With an API key in the config file ("issuer-id", "key-id", "private-key"), run first fetches what the archive lacks from Apple (see fetch) into the first --input, then ingests, analyzes and reports.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var log: LogOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var inputs: InputOptions
    @OptionGroup var report: ReportOptions

    @Flag(name: .long, help: "Print the run's summary as one JSON line on standard output (warnings stay on standard error).")
    var json = false

    func run() async throws {
        try await Console.runAsync(log) {
            var configuration = try ConfigurationBuilder.build(store: store, app: app, inputs: inputs, report: report)
            if configuration.fetch.isConfigured || configuration.fetch.asksForFinancialReports {
                let archive = try await FetchPlan.run(configuration)
                // What was fetched is ingested in the same run, wherever the config put it.
                if !configuration.inputs.contains(archive) { configuration.inputs.append(archive) }
            }
            let pipeline = Pipeline(configuration: configuration)
            guard configuration.fetch.isConfigured, configuration.fetch.facts != nil else {
                let summary = try pipeline.run(progress: Console.progress)
                let code = Console.health(summary.ingest, configuration)
                if json {
                    print(RunSummaryJSON.line(ingest: summary.ingest, analysis: summary.analysis, reports: summary.reports, exitCode: code ?? 0))
                } else {
                    Console.printIngest(summary.ingest)
                    Console.printAnalysis(summary.analysis)
                    Console.printReports(summary.reports, directory: configuration.reportsDirectory)
                }
                if let code { throw ExitCode(code) }
                return
            }
            // With facts: answer the pending consumption requests once the new documents are in, then analyze and
            // report, so the reports show today's answers.
            let ingest = try pipeline.ingest(progress: Console.progress)
            if !json { Console.printIngest(ingest) }
            try await ConsumptionPlan.run(configuration, dryRun: false)
            let analysis = try pipeline.analyze()
            let reports = try pipeline.report()
            let code = Console.health(ingest, configuration)
            if json {
                print(RunSummaryJSON.line(ingest: ingest, analysis: analysis, reports: reports, exitCode: code ?? 0))
            } else {
                Console.printAnalysis(analysis)
                Console.printReports(reports, directory: configuration.reportsDirectory)
            }
            if let code { throw ExitCode(code) }
        }
    }
}
