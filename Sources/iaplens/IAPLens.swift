import ArgumentParser
import Foundation
import IAPFormats
import IAPStore

/// `iaplens`: App Store purchase records in, finance / trust-and-safety / product reports out.
@main
struct IAPLens: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iaplens",
        abstract: "Turn App Store Server Notification archives and lookups into monthly reports.",
        discussion: """
            A scheduled batch pipeline. Each run fetches what the archive lacks from Apple's APIs (when given keys), reads what arrived since the last one (notification archives, lookups, Apple's financial reports and payment summaries) into a store, a SQLite file or a PostgreSQL schema, every signature verified against Apple's root; derives churn, the subscriber base, billing retry, refunds, chargeback losses, repeat-refund accounts, the reconciliation against Apple's books and the fiscal month's payment; writes CSV, Markdown and HTML with charts per month; and answers Apple's consumption requests. Reports are the same whether the data came in one run or in twenty, on either store.

            Typical daily job:
              iaplens run --input /archive --database iaplens.sqlite \\
                --reports reports --bundle-id com.example.app \\
                --app-apple-id 1234567890 --products products.csv

            Try it on simulated data: iaplens demo

            Reference paths: IAPLENS_REFERENCE=all (or a comma-separated list of \(FastPath.allCases.map(\.rawValue).joined(separator: ", "))) runs the reference implementation in place of each fast path named: slower, the same reports.

            Exit codes: \(ExitStatus.summary)
            """,
        version: IAPLensVersion.text,
        subcommands: [
            Run.self, Fetch.self, Ingest.self, Consumption.self, Analyze.self, Report.self, Status.self, Simulate.self,
            Demo.self, Reasons.self,
        ]
    )

    /// ArgumentParser's own entry point, after one check: a mistyped command is named with the one it most likely
    /// meant (``CommandSuggestion``), with the usage exit status.
    static func main() async {
        let commands = configuration.subcommands.map { $0._commandName }
        if let message = CommandSuggestion.message(for: Array(CommandLine.arguments.dropFirst()), commands: commands) {
            FileHandle.standardError.write(Data((message + "\n").utf8))
            Self.exit(withError: ExitCode(ExitStatus.usage))
        }
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            Self.exit(withError: error)
        }
    }
}
