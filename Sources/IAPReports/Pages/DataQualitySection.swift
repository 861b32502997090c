import IAPAnalytics

/// The **Data quality** section, the same on every page: what was read, what counted, what did not and why.
enum DataQualitySection {
    /// The section's Markdown (without the `## Data quality` heading).
    static func render(_ quality: DataQualitySummary) -> String {
        var blocks: [String] = []
        if let warning = noVerifyWarning(quality) { blocks.append(warning) }

        var table = MarkdownTable(columns: [.init("Measure"), .init("Count", .right), .init("Meaning")])
        func add(_ measure: String, _ count: Int, _ meaning: String) {
            table.rows.append([Markdown(text: measure), Markdown(text: String(count)), Markdown(markup: meaning)])
        }
        add("Files read", quality.filesRead, "input files read completely")
        add("Documents read", quality.documentsRead, "notifications and page entries, every copy")
        add("Accepted", quality.accepted, "verified, this app and environment, not TEST; every copy")
        add("Duplicates", quality.duplicates, "copies seen again (Apple retries, overlapping pages); counted once")
        let quarantined = quality.quarantinedByReason.reduce(0) { $0 + $1.count }
        add("Quarantined", quarantined, "stored with a reason, not counted (by reason below)")
        let otherEnvironments = quality.otherEnvironments.reduce(0) { $0 + $1.count }
        add("Other environments", otherEnvironments, "stored, never mixed into the figures")
        add("TEST notifications", quality.testNotifications, "stored, never counted")
        add("Unverified documents", quality.unverifiedDocuments, "accepted without a signature check (`--no-verify`)")
        add(
            "Unpriced transactions", quality.unpricedTransactions,
            "counted without an amount, currency `XXX`"
                + (quality.unpricedTransactions > 0 ? "; pass `--products`" : ""))
        add(
            "Unlinked transactions", quality.unlinkedTransactions,
            "no account known, never flagged" + (quality.unlinkedTransactions > 0 ? "; pass `--accounts`" : ""))
        blocks.append(table.render(limit: Int.max))

        if !quality.quarantinedByReason.isEmpty {
            var reasons = MarkdownTable(columns: [
                .init("Quarantine reason"), .init("Documents", .right), .init("Meaning"),
            ])
            for reason in quality.quarantinedByReason {
                reasons.rows.append([
                    Markdown(text: reason.label), Markdown(text: String(reason.count)),
                    Markdown(
                        text: Vocabulary.quarantineReason(reason.label) ?? "see `iaplens status` for the messages"),
                ])
            }
            blocks.append(reasons.render(limit: Int.max))
        }
        if !quality.otherEnvironments.isEmpty {
            let list = quality.otherEnvironments.map { Markdown(text: "\($0.label): \($0.count)").source }
            blocks.append("Other environments: " + list.joined(separator: ", ") + ".")
        }
        blocks.append("Reference files: " + referenceFiles(quality) + ".")
        return blocks.joined(separator: "\n\n")
    }

    /// The bold warning shown when signatures were not checked; nil when every document was verified.
    static func noVerifyWarning(_ quality: DataQualitySummary) -> String? {
        guard quality.unverifiedDocuments > 0 else { return nil }
        return "> **Warning: `--no-verify` was used. \(quality.unverifiedDocuments) accepted documents were not "
            + "signature-checked; these figures trust the archive as it is.**"
    }

    private static func referenceFiles(_ quality: DataQualitySummary) -> String {
        let products = quality.productCatalogRows.map { "`products.csv` loaded (\($0) rows)" } ?? "no `products.csv`"
        let accounts = quality.accountMappingRows.map { "`accounts.csv` loaded (\($0) rows)" } ?? "no `accounts.csv`"
        return products + ", " + accounts
    }
}
