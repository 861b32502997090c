import IAPAnalytics

/// The **Data quality** section, the same on every page: what was read, what counted, what did not and why.
enum DataQualitySection {
    /// The section's blocks (without the `Data quality` heading).
    static func render(_ quality: DataQualitySummary) -> [Block] {
        var blocks: [Block] = []
        if let warning = noVerifyWarning(quality) { blocks.append(warning) }

        var table = PageTable(columns: [.init("Measure"), .init("Count", .right), .init("Meaning")])
        func add(_ measure: String, _ count: Int, _ meaning: Text) {
            table.rows.append([.prose(measure), "\(count)", meaning])
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
        add(
            "Unverified documents", quality.unverifiedDocuments,
            "accepted without a signature check (\(code: "--no-verify"))")
        add(
            "Unpriced transactions", quality.unpricedTransactions,
            "counted without an amount, currency \(code: "XXX")"
                + (quality.unpricedTransactions > 0 ? "; pass \(code: "--products")" : Text()))
        add(
            "Unlinked transactions", quality.unlinkedTransactions,
            "no account known, never flagged"
                + (quality.unlinkedTransactions > 0 ? "; pass \(code: "--accounts")" : Text()))
        blocks.append(.table(table))

        if !quality.quarantinedByReason.isEmpty {
            var reasons = PageTable(columns: [
                .init("Quarantine reason"), .init("Documents", .right), .init("Meaning"),
            ])
            for reason in quality.quarantinedByReason {
                let meaning =
                    Vocabulary.quarantineReason(reason.label).map(Text.prose)
                    ?? "see \(code: "iaplens status") for the messages"
                reasons.rows.append([.data(reason.label), "\(reason.count)", meaning])
            }
            blocks.append(.table(reasons))
        }
        if !quality.otherEnvironments.isEmpty {
            let list = quality.otherEnvironments.map { Text.data("\($0.label): " + CountText.count($0.count)) }
            blocks.append(.paragraph("Other environments: " + Text.joined(list, separator: ", ") + "."))
        }
        blocks.append(.paragraph("Reference files: " + referenceFiles(quality) + "."))
        return blocks
    }

    /// The warning shown when signatures were not checked; nil when every document was verified.
    static func noVerifyWarning(_ quality: DataQualitySummary) -> Block? {
        guard quality.unverifiedDocuments > 0 else { return nil }
        return .callout(
            [
                .strong(
                    "Warning: \(code: "--no-verify") was used. \(quality.unverifiedDocuments) accepted documents were "
                        + "not signature-checked; these figures trust the archive as it is.")
            ], kind: .warning)
    }

    private static func referenceFiles(_ quality: DataQualitySummary) -> Text {
        let products: Text =
            quality.productCatalogRows.map { "\(code: "products.csv") loaded (\($0) rows)" }
            ?? "no \(code: "products.csv")"
        let accounts: Text =
            quality.accountMappingRows.map { "\(code: "accounts.csv") loaded (\($0) rows)" }
            ?? "no \(code: "accounts.csv")"
        return products + ", " + accounts
    }
}
