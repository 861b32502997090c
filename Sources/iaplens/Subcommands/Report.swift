import ArgumentParser
import IAPPipeline

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the CSV, Markdown and HTML reports of every month (or of --month) and the index.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var log: LogOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var report: ReportOptions
    @OptionGroup var quarantine: QuarantineThresholdOption

    func run() throws {
        try Console.run(log) {
            let configuration = try ConfigurationBuilder.build(
                store: store, app: app, report: report, quarantine: quarantine)
            let pipeline = Pipeline(configuration: configuration, analysisProgress: Console.analysisProgress())
            let written = try pipeline.report()
            Console.printReports(written, directory: configuration.reportsDirectory)
        }
    }
}
