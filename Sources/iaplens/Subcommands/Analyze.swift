import ArgumentParser
import IAPPipeline

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the derived models (timelines, churn, billing episodes, refunds, accounts, flags).")

    @OptionGroup var store: StoreOptions
    @OptionGroup var log: LogOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var report: ReportOptions

    func run() throws {
        try Console.run(log) {
            let configuration = try ConfigurationBuilder.build(store: store, app: app, report: report)
            let summary = try Pipeline(configuration: configuration, analysisProgress: Console.analysisProgress()).analyze()
            Console.printAnalysis(summary)
        }
    }
}
