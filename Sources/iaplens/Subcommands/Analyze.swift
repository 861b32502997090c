import ArgumentParser
import IAPPipeline

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the derived models (timelines, churn, billing episodes, refunds, accounts, flags).")

    @OptionGroup var store: StoreOptions
    @OptionGroup var log: LogOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var report: ReportOptions

    @Flag(
        help: ArgumentHelp(
            "Build every model even when they stand.",
            discussion:
                "Without it, analyze builds nothing when the models were built from the same data, reference files, options and models (it says so); use it to time a build, or after editing the store's tables by hand."
        ))
    var rebuild = false

    func run() throws {
        try Console.run(log) {
            let configuration = try ConfigurationBuilder.build(store: store, app: app, report: report)
            let summary = try Pipeline(configuration: configuration, analysisProgress: Console.analysisProgress())
                .analyze(rebuild: rebuild)
            Console.printAnalysis(summary)
        }
    }
}
