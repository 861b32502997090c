import ArgumentParser
import IAPPipeline

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ingest, analyze and report in one go: what a scheduled job runs.",
        discussion: """
            Example:
              iaplens run --input archive/ --database iaplens.sqlite --reports reports \\
                          --bundle-id com.example.app --app-apple-id 1234567890 \\
                          --products products.csv --accounts accounts.csv
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var inputs: InputOptions
    @OptionGroup var report: ReportOptions

    func run() throws {
        try Console.run {
            let configuration = try ConfigurationBuilder.build(store: store, app: app, inputs: inputs, report: report)
            let summary = try Pipeline(configuration: configuration).run(progress: Console.progress)
            Console.printIngest(summary.ingest)
            Console.printAnalysis(summary.analysis)
            Console.printReports(summary.reports, directory: configuration.reportsDirectory)
        }
    }
}
