import ArgumentParser
import Foundation
import IAPPipeline
import IAPSimulator
import IAPStore

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Simulate a small app, run the whole pipeline on it, and print where the reports are.")

    /// `--output` too: `simulate` names its folder so, and a user going from one to the other types it.
    @Option(
        name: [.customLong("directory"), .customLong("output")],
        help: ArgumentHelp("Working folder for the simulated archive, store and reports.", valueName: "dir"))
    var directory: String = "iaplens-demo"

    @Option(
        help: ArgumentHelp(
            "The store: a SQLite file (default <dir>/iaplens.sqlite) or a postgres:// URL (see `iaplens run --help`).",
            valueName: "file-or-url"))
    var database: String?

    @OptionGroup var flags: SimulationFlags
    @OptionGroup var log: LogOptions

    func run() throws {
        let options = flags.options
        do {
            try options.validate()
        } catch {
            throw ValidationError(error.description)
        }
        try Console.run(log) {
            let archive = directory + "/archive"
            Console.note("demo: simulating \(options.months) month(s) of \(options.bundleId) into \(archive)")
            let manifest = try Simulator(options: options).run(into: archive, progress: Console.simulationProgress())
            var configuration = PipelineConfiguration()
            // The data folders only: expectations.json beside them is the simulator's answer key, not input.
            configuration.inputs = ["notifications", "history", "refunds", "orders", "finance"].map {
                archive + "/" + $0
            }
            configuration.databasePath = database ?? directory + "/iaplens.sqlite"
            SQLiteTemporaryFiles.placeBeside(databasePath: configuration.databasePath)
            configuration.reportsDirectory = directory + "/reports"
            configuration.bundleId = options.bundleId
            configuration.appAppleId = options.appAppleId
            configuration.rootCertificates = [archive + "/certs/root.pem"]
            configuration.productsPath = archive + "/products.csv"
            configuration.accountsPath = archive + "/accounts.csv"
            configuration.reviewsPath = archive + "/reviews.csv"
            let summary = try Pipeline(configuration: configuration, analysisProgress: Console.analysisProgress())
                .run(progress: Console.progress)
            // What was simulated, then each stage as `run` says it, the reports' place last.
            Console.result("demo: simulated \(manifest.months.count) month(s) of \(options.bundleId) into \(archive)")
            Console.printIngest(summary.ingest)
            Console.printAnalysis(summary.analysis)
            Console.printReports(summary.reports, directory: configuration.reportsDirectory)
        }
    }
}
