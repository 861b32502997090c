import ArgumentParser
import IAPPipeline

struct Ingest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read new archive files into the store (verified, deduplicated, bad input quarantined).",
        discussion: """
            Reads, from files or folders (searched recursively), notification archives and lookups (.json, .jsonl, \
            .ndjson, any of them gzipped) and Apple's financial reports and payment summaries (recognised by their \
            content, whatever their names). A file already read (same content) is skipped; a run killed midway is \
            completed by the next one.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var log: LogOptions
    @OptionGroup var app: AppOptions
    @OptionGroup var reading: ReadingOptions
    @OptionGroup var inputs: InputOptions
    @OptionGroup var quarantine: QuarantineThresholdOption

    func run() throws {
        try Console.run(log) {
            let configuration = try ConfigurationBuilder.build(
                store: store, app: app, reading: reading, inputs: inputs, quarantine: quarantine)
            let summary = try Pipeline(configuration: configuration).ingest(progress: Console.progress)
            Console.printIngest(summary)
            if let code = Console.health(summary, configuration) { throw ExitCode(code) }
        }
    }
}
