import Foundation
import IAPFormats
import IAPTestSigning

/// Writes a deterministic, signed, realistically noisy App Store archive.
public struct Simulator: Sendable {
    /// The options this simulator runs with.
    public let options: SimulationOptions

    /// Creates a simulator; options are validated by `run`.
    public init(options: SimulationOptions) {
        self.options = options
    }

    /// Writes the archive under `directory` and returns what was injected (also saved as `expectations.json`).
    /// - Parameters:
    ///   - directory: The output folder; created if missing. Existing files of the same names are replaced.
    ///   - progress: Called from the calling thread after each batch of chunks is on disk.
    /// - Returns: The manifest of the run.
    /// - Throws: `SimulationOptionError` for bad options, `SimulationIOError` for file failures, `SigningError` from signing.
    public func run(into directory: String, progress: (@Sendable (SimulationProgress) -> Void)? = nil) throws
        -> SimulationManifest
    {
        try options.validate()
        let world = SimWorld(options: options)
        try Self.makeDirectories(directory)
        let chain = try TestCertificateChain.generate(seed: "iaplens-simulator-\(options.seed)")
        let untrustedChain = try TestCertificateChain.generate(seed: "iaplens-simulator-untrusted-\(options.seed)")
        let writer = try ArchiveWriter(directory: directory, world: world)
        try chain.write(to: directory + "/certs")
        let builder = ChunkBuilder(
            world: world, renderer: DocumentRenderer(world: world, signer: JWSSigner(chain: chain)),
            untrusted: JWSSigner(chain: untrustedChain))
        try ParallelChunks(builder: builder, workers: options.shards).run { chunk throws in
            try writer.append(chunk)
            progress?(
                SimulationProgress(
                    entitiesDone: writer.entitiesDone, entitiesTotal: builder.entityCount,
                    documentsWritten: writer.documentsWritten))
        }
        try writer.finish()
        let manifest = makeManifest(world: world, writer: writer)
        try ArchiveWriter.writeText(Self.reviews(manifest, cleared: writer.reviewRows), to: directory + "/reviews.csv")
        do {
            try manifest.encoded().write(to: URL(fileURLWithPath: directory + "/expectations.json"))
        } catch {
            throw SimulationIOError(path: directory + "/expectations.json", detail: "\(error)")
        }
        return manifest
    }

    /// A trust-and-safety reviewer's file (Documentation/Reports.md "The review queue"): the returning ring member
    /// cleared after its first burst (``RefundRingScript``), so that it comes back to the queue as active, and the
    /// account flagged earliest of the others confirmed at the start of the month after it was first flagged.
    static func reviews(_ manifest: SimulationManifest, cleared: [String]) -> String {
        var text = "account_id,decision,reviewed_at,reviewer,note\n"
        text += cleared.sorted().map { $0 + "\n" }.joined()
        let clearedAccounts = Set(cleared.map { String($0.prefix { $0 != "," }) })
        for first in manifest.flaggedAccountsByMonth.keys.sorted() {
            guard
                let confirmed = manifest.flaggedAccountsByMonth[first]?.first(where: { !clearedAccounts.contains($0) }),
                let month = Int(first.suffix(2)), let year = Int(first.prefix(4))
            else { continue }
            let next = month == 12 ? "\(year + 1)-01" : "\(year)-\(month < 9 ? "0" : "")\(month + 1)"
            text += "\(confirmed),confirmed,\(next)-01T00:00:00Z,ana,\"buys currency, spends it, refunds it\"\n"
            break
        }
        return text
    }

    private static func makeDirectories(_ directory: String) throws(SimulationIOError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw SimulationIOError(path: directory, detail: "\(error)")
        }
    }

    private func makeManifest(world: SimWorld, writer: ArchiveWriter) -> SimulationManifest {
        let tally = writer.tally
        let months = (world.firstMonth..<world.endMonth).map(SimTime.monthText)
        let v2FirstMonth = SimTime.monthIndex(ofMillis: world.v2Start)
        var byMonth: [String: [String]] = [:]
        for (month, accounts) in writer.flagged { byMonth[SimTime.monthText(month)] = Array(Set(accounts)).sorted() }
        let noise = tally.category("noise")
        let refunds = tally.category("refunds")
        return SimulationManifest(
            seed: options.seed, bundleId: options.bundleId, appAppleId: options.appAppleId,
            rootCertificate: "certs/root.pem",
            months: months,
            v1Months: (world.firstMonth..<min(v2FirstMonth, world.endMonth)).map(SimTime.monthText),
            v2Months: (min(v2FirstMonth, world.endMonth)..<world.endMonth).map(SimTime.monthText),
            firstPurchaseMonth: writer.firstPurchase == .max
                ? nil : SimTime.monthText(SimTime.monthIndex(ofMillis: writer.firstPurchase)),
            asOf: writer.asOf, asOfISO8601: SimTime.iso8601(writer.asOf),
            outageStart: world.outage?.lowerBound, outageEnd: world.outage?.upperBound,
            files: tally.category("files"), documents: tally.category("documents"),
            duplicates: tally.category("duplicates"),
            forged: tally.category("forged"), brokenLines: tally.category("brokenLines"),
            sandboxDocuments: noise["sandboxDocuments"] ?? 0, testNotifications: noise["testNotifications"] ?? 0,
            otherAppDocuments: noise["otherAppDocuments"] ?? 0, lostNotifications: tally.category("lostNotifications"),
            v2NotificationTypes: tally.category("v2NotificationTypes"),
            v1NotificationTypes: tally.category("v1NotificationTypes"),
            refunds: .init(
                total: refunds["total"] ?? 0, fromNotifications: refunds["fromNotifications"] ?? 0,
                lookupsOnly: refunds["lookupsOnly"] ?? 0, consumable: refunds["consumable"] ?? 0,
                byMonth: tally.category("refundsByMonth")),
            lookups: tally.category("lookups"), intendedChurn: tally.category("intendedChurn"),
            billingEpisodes: tally.category("billingEpisodes"),
            flaggedAccounts: byMonth[SimTime.monthText(world.endMonth - 1)] ?? [], flaggedAccountsByMonth: byMonth,
            accountRows: tally.value("accounts", "rows"))
    }
}
