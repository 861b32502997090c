import ArgumentParser
import IAPFetch
import IAPPipeline
import IAPReports
import IAPStore

struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ingest, analyze and report in one go: what a scheduled job runs.",
        discussion: """
            Example:
              iaplens run --input archive/ --database iaplens.sqlite --reports reports \\
                          --bundle-id com.example.app --app-apple-id 1234567890 \\
                          --products products.csv --accounts accounts.csv

            With an API key in the config file ("issuer-id", "key-id", "private-key"), run first fetches what the archive lacks from Apple (see fetch) into the first --input, then ingests, analyzes and reports; with "facts" too, it answers Apple's pending consumption requests (see consumption) between analyze and report. The store is held from the first stage to the last. When Apple or the network cuts the fetch short, the run still reports what the archive holds and exits 75.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var log: LogOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var reading: ReadingOptions
    @OptionGroup var inputs: InputOptions
    @OptionGroup var report: ReportOptions
    @OptionGroup var quarantine: QuarantineThresholdOption

    @Flag(
        name: .long,
        help: "Print the run's summary as one JSON line on standard output (warnings stay on standard error).")
    var json = false

    func run() async throws {
        try await Console.runAsync(log) {
            let configuration = try ConfigurationBuilder.build(
                store: store, app: app, reading: reading, inputs: inputs, report: report, quarantine: quarantine)
            let summary = try await Pipeline(configuration: configuration, analysisProgress: Console.analysisProgress())
                .runAll(
                    progress: Console.progress, fetchProgress: AppleOutput.fetchProgress(),
                    fetchRetried: AppleOutput.retryLine)
            // A quarantine or input problem (65, 66) needs a person and wins; a fetch that Apple or the network cut
            // short ends the run 75 (try later) once the archive at hand is reported.
            let code =
                Console.health(summary.ingest, configuration) ?? summary.fetchFailure.map { _ in ExitStatus.tryLater }
            // With --json, standard output holds the one JSON line: the other stages' lines go to the log.
            if let fetched = summary.fetch { AppleOutput.printFetch(fetched, lineToLog: json) }
            if let failure = summary.fetchFailure {
                Console.warn(
                    "\(failure.description) The run went on with what the archive holds; the next run fetches again.")
            }
            // The store's quarantine share is said once: the run's own share, just said, is the same sentence.
            let health = Console.healthWarning(summary.ingest, configuration)
            var reports = summary.reports
            reports.warnings.removeAll { $0 == health }
            if !json {
                Console.printIngest(summary.ingest)
                Console.printAnalysis(summary.analysis)
                Console.printReports(reports, directory: configuration.reportsDirectory)
            } else {
                for warning in reports.warnings { Console.warn(warning) }
                print(
                    RunSummaryJSON.line(
                        ingest: summary.ingest, analysis: summary.analysis, reports: summary.reports,
                        exitCode: code ?? 0,
                        warnings: [health].compactMap { $0 } + reports.warnings))
            }
            if let consumption = summary.consumption {
                try AppleOutput.printConsumption(consumption, dryRun: false, lineToLog: json)
            }
            if let code { throw ExitCode(code) }
        }
    }
}
