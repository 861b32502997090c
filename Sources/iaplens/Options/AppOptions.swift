import ArgumentParser

/// Which app and environment the data must belong to: every command that reads a store.
struct AppOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("The app's bundle ID; documents of other apps are quarantined (wrong_app).", valueName: "id")
    )
    var bundleId: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The app's Apple ID, checked on Production documents that carry one.", valueName: "n"))
    var appAppleId: Int64?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Production (default) or Sandbox. Other environments are stored, never counted.", valueName: "env"))
    var environment: String?
}
