import ArgumentParser

/// Which app and environment the data must belong to, and how signatures are checked.
struct AppOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The app's bundle ID; documents of other apps are quarantined (wrong_app).", valueName: "id"))
    var bundleId: String?

    @Option(name: .long, help: ArgumentHelp("The app's Apple ID, checked on Production documents that carry one.", valueName: "n"))
    var appAppleId: Int64?

    @Option(name: .long, help: ArgumentHelp("Production (default) or Sandbox. Other environments are stored, never counted.", valueName: "env"))
    var environment: String?

    @Option(name: .customLong("root-certificate"), help: ArgumentHelp(
        "A trusted root (PEM or DER), repeatable. Replaces the built-in Apple Root CA - G3; use for test or simulated data.",
        valueName: "file"))
    var rootCertificates: [String] = []

    @Option(name: .customLong("v1-shared-secret"), help: ArgumentHelp(
        "The app-specific shared secret V1 bodies echo in `password`; V1 is unsigned, so bodies without it are quarantined. Prefer the config file for secrets.",
        valueName: "secret"))
    var v1SharedSecret: String?

    @Option(name: .customLong("max-quarantine-percent"), help: ArgumentHelp(
        "Above this share of quarantined documents (default 20) a run warns naming the main reason and its remedy, every page says so, and ingest/run exit 65.",
        valueName: "0-100"))
    var maxQuarantinePercent: Int?

    /// Refuses the ingest-only options for a command that reads no archive (`analyze`, `report`): accepted and
    /// ignored, they would let a user believe they had an effect.
    func rejectIngestOptions(command: String) throws {
        var given: [String] = []
        if !rootCertificates.isEmpty { given.append("--root-certificate") }
        if v1SharedSecret != nil { given.append("--v1-shared-secret") }
        if noVerify { given.append("--no-verify") }
        guard given.isEmpty else {
            throw ValidationError(
                "\(given.joined(separator: ", ")) only applies when documents are read (ingest, run); \(command) reads the store. Remove it, or use `iaplens run`.")
        }
    }

    @Flag(name: .customLong("no-verify"), help: "Decode signatures without checking them (archives verified on receipt). Recorded in every report.")
    var noVerify = false
}
