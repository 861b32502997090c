import ArgumentParser

/// Where the store is, and an optional configuration file.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The SQLite store (created if missing).", valueName: "file"))
    var database: String?

    @Option(name: .long, help: ArgumentHelp(
        "A JSON file of options, keys named like the flags: {\"input\": [\"archive\"], \"bundle-id\": \"com.example.app\"}. Flags win.",
        valueName: "file"))
    var config: String?
}
