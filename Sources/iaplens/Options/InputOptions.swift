import ArgumentParser

/// What to read.
struct InputOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "An archive file or folder (searched recursively), repeatable: notification archives and lookups (.json, .jsonl, "
                + ".ndjson), Apple's financial reports (FINANCE_DETAIL .txt) and payment summaries (financial_report.csv), "
                + "each optionally .gz; reports and summaries are recognised by their content, whatever their name. "
                + "iaplens's own reports folder (--reports, default reports), when an input folder holds it, is left out.",
            valueName: "path"))
    var input: [String] = []
}
