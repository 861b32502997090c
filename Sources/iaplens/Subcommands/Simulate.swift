import ArgumentParser
import IAPSimulator

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a simulated app's archive: V1 then V2 notifications, lookups, reference files, noise.",
        discussion: """
            Signed like Apple's data, with a generated test chain whose root is written to <output>/certs/root.pem
            (pass it as --root-certificate). expectations.json records what was injected.
            """)

    @Option(help: ArgumentHelp("Folder to write (created; files in it are replaced).", valueName: "dir"))
    var output: String

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
            let manifest = try Simulator(options: options).run(into: output, progress: Console.simulationProgress())
            Console.result(
                "simulate: wrote \(output) (root certificate: \(manifest.rootCertificate); expectations: \(output)/expectations.json)"
            )
        }
    }
}
