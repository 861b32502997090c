import ArgumentParser
import IAPPipeline
import IAPStore

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the store holds: files, documents by kind/environment, quarantine, months, last runs.")

    @OptionGroup var store: StoreOptions

    @Option(name: .long, help: "Also list up to N quarantined documents with file, line and message.")
    var quarantine: Int = 0

    func run() throws {
        try Console.run {
            let configuration = try ConfigurationBuilder.build(store: store)
            let status = try Pipeline(configuration: configuration).status(quarantineLimit: max(0, quarantine))
            // Never the password of a PostgreSQL URL.
            let shown = (try? StoreLocation(configuration.databasePath).description) ?? configuration.databasePath
            print(TerminalText.safe(StatusPrinter.render(status, databasePath: shown)))
        }
    }
}

/// Plain-text rendering of `StoreStatus`.
enum StatusPrinter {
    static func render(_ s: StoreStatus, databasePath: String) -> String {
        var lines: [String] = []
        lines.append("store: \(databasePath)" + (s.bundleId.map { " (\($0))" } ?? ""))
        lines.append("files: \(s.filesComplete) read" + (s.filesIncomplete > 0 ? ", \(s.filesIncomplete) incomplete (the next run finishes them)" : ""))
        lines.append("transactions: \(s.transactions)")
        lines.append("duplicates (copies of accepted documents): \(s.duplicates)")
        if s.unverifiedDocuments > 0 { lines.append("WARNING: \(s.unverifiedDocuments) accepted document(s) ingested with --no-verify (signatures not checked)") }
        section("documents by outcome", s.documentsByOutcome, into: &lines)
        section("documents by kind", s.documentsByKind, into: &lines)
        section("documents by environment", s.documentsByEnvironment, into: &lines)
        section("notifications by type", s.notificationsByType, into: &lines)
        section("quarantine by reason", s.quarantineByReason, into: &lines)
        lines.append("months covered: " + (s.months.isEmpty ? "none" : "\(s.months.first ?? "") … \(s.months.last ?? "") (\(s.months.count))"))
        lines.append("last runs:")
        if s.lastRuns.isEmpty { lines.append("  none") }
        for run in s.lastRuns {
            lines.append("  \(run.command): \(run.outcome), started \(run.startedAt)"
                + (run.finishedAt.map { ", finished \($0)" } ?? "")
                + (run.command == "ingest" ? ", \(run.documentsRead) documents, \(run.documentsQuarantined) quarantined" : "")
                + (run.isVerified ? "" : " [--no-verify]"))
        }
        if !s.quarantineSamples.isEmpty {
            lines.append("quarantined documents:")
            for sample in s.quarantineSamples {
                let place = sample.entry > 0 ? "\(sample.path):\(sample.line) entry \(sample.entry)" : "\(sample.path):\(sample.line)"
                lines.append("  [\(sample.reason)] \(place): \(sample.message)")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func section(_ title: String, _ counts: [StoreStatus.Count], into lines: inout [String]) {
        lines.append("\(title):")
        if counts.isEmpty { lines.append("  none") }
        for count in counts { lines.append("  \(count.label): \(count.count)") }
    }
}
