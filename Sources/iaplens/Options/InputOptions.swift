import ArgumentParser

/// What to read.
struct InputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "An archive file or folder (searched recursively), repeatable: .json, .jsonl, .ndjson, optionally .gz.",
        valueName: "path"))
    var input: [String] = []
}
