import ArgumentParser
import Foundation
import IAPFormats
import IAPPipeline

/// How much the command says on standard error: `--quiet` warnings and errors only (and no summary on standard
/// output), `--verbose` also the settings it runs with and every progress step. Also `IAPLENS_QUIET=1` and
/// `IAPLENS_VERBOSE=1`, for a scheduler's environment.
struct LogOptions: ParsableArguments {
    @Flag(
        name: .long, help: "Only warnings and errors, on standard error; no summary (for cron: silence means success).")
    var quiet = false

    @Flag(name: .long, help: "Also the settings the command runs with and every progress step.")
    var verbose = false

    /// The variables these options read.
    static let environmentVariables = ["IAPLENS_QUIET", "IAPLENS_VERBOSE"]

    func validate() throws {
        for name in Self.environmentVariables {
            if let text = ProcessInfo.processInfo.environment[name], ConfigurationEnvironment.flag(text) == nil {
                throw ValidationError("\(name) must be true or false (got \(text)).")
            }
        }
        if isQuiet && isVerbose { throw ValidationError("--quiet and --verbose cannot be used together.") }
        // Every command has these options, so a misspelt fast path stops every command before it starts.
        do { try FastPath.validateEnvironment() } catch { throw ValidationError(error.description) }
    }

    var isQuiet: Bool { quiet || Self.environmentFlag("IAPLENS_QUIET") }
    var isVerbose: Bool { verbose || Self.environmentFlag("IAPLENS_VERBOSE") }

    private static func environmentFlag(_ name: String) -> Bool {
        ProcessInfo.processInfo.environment[name].flatMap(ConfigurationEnvironment.flag) ?? false
    }
}
