import ArgumentParser

/// How documents are read and checked: only the commands that read an archive (`ingest`, `run`) take these, so the
/// other commands' help does not offer options that would have no effect there.
struct ReadingOptions: ParsableArguments {
    @Option(
        name: .customLong("root-certificate"),
        help: ArgumentHelp(
            "A trusted root (PEM or DER), repeatable. Replaces the built-in Apple Root CA - G3; use for test or simulated data.",
            valueName: "file"))
    var rootCertificates: [String] = []

    @Option(
        name: .customLong("v1-shared-secret"),
        help: ArgumentHelp(
            "The app-specific shared secret V1 bodies echo in `password`; V1 is unsigned, so bodies without it are quarantined. Prefer the config file for secrets.",
            valueName: "secret"))
    var v1SharedSecret: String?

    @Flag(
        name: .customLong("no-verify"),
        help: "Decode signatures without checking them (archives verified on receipt). Recorded in every report.")
    var noVerify = false
}
