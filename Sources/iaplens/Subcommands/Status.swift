import ArgumentParser
import IAPFormats
import IAPPipeline
import IAPStore

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the store holds: files, documents by kind/environment, quarantine, months, last runs.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var log: LogOptions

    @Option(
        name: .long,
        help: "Also list up to N quarantined documents with file, line, message and the start of the document.")
    var quarantine: Int = 0

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only quarantined documents with this reason code (see `iaplens reasons`).", valueName: "code"))
    var reason: String?

    @Flag(name: .long, help: "Print the status as one JSON object (for monitoring) instead of text.")
    var json = false

    func validate() throws {
        if let reason, QuarantineReason(rawValue: reason) == nil {
            let codes = QuarantineReason.allCases.map(\.rawValue)
            let meant =
                ConfigurationEnvironment.closest(to: reason, among: codes, within: 3).map { ", did you mean \($0)?" }
                ?? ""
            throw ValidationError(
                "--reason must be a quarantine reason code (got \(reason)\(meant)); `iaplens reasons` lists them.")
        }
    }

    func run() throws {
        try Console.run(log) {
            let configuration = try ConfigurationBuilder.build(store: store)
            let status = try Pipeline(configuration: configuration).status(
                quarantineLimit: max(0, quarantine), reason: reason)
            // Never the password of a PostgreSQL URL.
            let shown = (try? StoreLocation(configuration.databasePath).description) ?? configuration.databasePath
            if json {
                print(StatusPrinter.json(status, databasePath: shown))
            } else {
                print(TerminalText.safe(StatusPrinter.render(status, databasePath: shown)))
            }
        }
    }
}
