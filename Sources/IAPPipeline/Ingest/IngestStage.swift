import Foundation
import IAPFormats
import IAPStore
import IAPVerification

/// The `ingest` stage: reads new input files, verifies and decodes their documents on all cores, and
/// loads them in order, one store transaction per batch. A file already read (same content) is
/// skipped; a file half-read by a killed run is read again, and its keyed rows make that harmless.
public struct IngestStage: Sendable {
    /// Tuning and inputs.
    public struct Options: Sendable {
        /// Files and folders to read.
        public var inputs: [String]
        /// App, environment, verification.
        public var policy: IngestPolicy
        /// Trusted roots (ignored under `--no-verify`).
        public var roots: [TrustedRoot]
        /// Folders not to enter when an input folder holds them: iaplens's own reports folder.
        public var leavingOut: [String] = []
        /// Documents per SQLite transaction (about 8 MB of rows; at most 2 batches are in memory at once: one
        /// filling, one being written). Each commit rewrites every index page it touched, and index
        /// keys (transaction IDs, and UUIDs outside bulk loads) are scattered, so fewer, larger transactions write
        /// far less: a 100k archive under --no-verify took 12.6 s with 1,024 and 9.3 s with 4,096 (with the
        /// checkpoint setting below). 8,192 was within the noise in the full benchmark (1M verified 104.7 s
        /// against 102.5–105.1 s) and raised the peaks by 20 MB (182 MB at 1M under --no-verify).
        public var batchSize: Int = 4_096
        /// Store rows per write (documents, notifications, transaction versions, renewal infos, lookups, quarantine),
        /// whichever of the two limits comes first. A V2 notification makes three or four rows, so the document limit
        /// decides there; a V1 notification carries its subscriber's whole history (12 transaction versions on
        /// average in the real-shaped archive). In the real-shaped 1M archive, the first V2 documents after the
        /// lookup pages and the V1 notifications peaked at 191 MB; with this bound at 165 MB, and the whole
        /// --no-verify ingest took 109 s against 113 s (Documentation/Performance.md "Analyze and report").
        public var batchRows: Int = 16_384
        /// Lines read per chunk and verified per round on all cores (a round also stops at 4 MB).
        public var chunkSize: Int = 256

        /// Creates options.
        public init(inputs: [String], policy: IngestPolicy, roots: [TrustedRoot]) {
            self.inputs = inputs
            self.policy = policy
            self.roots = roots
        }
    }

    private let store: any StoreEngine
    private let options: Options
    private let progress: (@Sendable (IngestProgress) -> Void)?

    /// Creates the stage.
    public init(store: any StoreEngine, options: Options, progress: (@Sendable (IngestProgress) -> Void)? = nil) {
        self.store = store
        self.options = options
        self.progress = progress
    }

    /// Runs the stage under the given run ID.
    ///
    /// Four threads, each bounded so memory stays flat: the reader (hash, decompress, split), the processing
    /// stage (verify and decode on all cores), this loader (assemble batches in input order) and the writer
    /// (one store transaction per batch). A file is registered in the batch that carries its first rows and
    /// marked complete in the batch that carries its last, so a batch may span files and nothing drains at
    /// file boundaries.
    public func run(runId: Int64) throws -> IngestSummary {
        MemoryRelease.returnLargeBlocksWhenFreed()
        let discovery = try InputDiscovery.discover(options.inputs, leavingOut: options.leavingOut)
        let verifier = options.policy.verifySignatures ? try JWSVerifier(trustedRoots: options.roots) : nil
        let processor = DocumentProcessor(policy: options.policy, verifier: verifier)
        let storeWriter = store.makeDocumentWriter()
        // Apple's financial reports first (small, one transaction each), before a bulk load takes the indexes away.
        let reports = try AppleReportLoader(store: store, runId: runId)
            .load(candidates: discovery.skipped, alreadyRead: try storeWriter.completedFileHashes())
        let isBulkLoad = try storeWriter.beginIngest(files: discovery.files.map { ($0.path, $0.byteCount) })
        let writer = BatchWriterThread(writer: storeWriter)
        var summary = IngestSummary(
            filesFound: discovery.files.count + reports.reportsFound + reports.paymentSummariesFound,
            filesIgnored: reports.notReports, entriesNotFiles: discovery.notFiles)
        summary.foldersLeftOut = discovery.leftOut
        summary.filesRead = reports.reportsLoaded + reports.paymentSummariesLoaded + reports.refusals.count
        summary.applePaymentSummariesFound = reports.paymentSummariesFound
        summary.applePaymentSummariesLoaded = reports.paymentSummariesLoaded
        summary.filesAlreadyRead = reports.reportsAlreadyRead
        summary.unreadableFiles = reports.unreadableFiles
        summary.appleReportsFound = reports.reportsFound
        summary.appleReportsLoaded = reports.reportsLoaded
        summary.appleReportRows = reports.rowsLoaded
        summary.appleReportQuarantine = reports.quarantinedByReason
        summary.appleReportRefusals = reports.refusals
        summary.appleFileCopies = reports.copies
        var tracker = ProgressTracker(totalFiles: discovery.files.count, report: progress)

        let registered = try storeWriter.fileRegistrations()
        let reader = ArchiveReader(
            files: discovery.files, alreadyRead: registered.completedHashes,
            registered: registered, chunkSize: options.chunkSize)
        let stage = ProcessingStage(reader: reader, processor: processor, linesPerRound: options.chunkSize)
        defer { stage.cancel() }
        // The documents' own small batches, written together: merging them would copy every row once more.
        var pending: [DocumentBatch] = []
        var pendingDocuments = 0
        var pendingRows = 0
        var documentsInFile = 0
        while let event = stage.next() {
            switch event {
            case .skipped:
                summary.filesAlreadyRead += 1
                tracker.fileDone()
            case .unreadable(let input, let reason):
                summary.unreadableFiles.append("\(input.path): \(reason)")
            case .started(let file):
                var started = DocumentBatch()
                started.startedFiles = [
                    StartedFile(
                        fileSHA256: file.sha256, path: file.path, byteCount: file.byteCount, runId: runId,
                        continues: file.continues)
                ]
                pending.append(started)
                documentsInFile = 0
            case .processed(_, let results):
                var documents = 0
                var quarantined = 0
                pending.append(contentsOf: results)
                for result in results {
                    summary.count(result)
                    documents += result.documents.count
                    quarantined += result.quarantine.count
                    pendingRows += result.rowCount
                }
                documentsInFile += documents
                tracker.add(documents: documents, quarantined: quarantined)
                pendingDocuments += documents
                if pendingDocuments >= options.batchSize || pendingRows >= options.batchRows {
                    try writer.submit(pending)
                    pending = []
                    pendingDocuments = 0
                    pendingRows = 0
                }
            case .finished(let file):
                var completed = DocumentBatch()
                completed.completedFiles = [
                    CompletedFile(fileSHA256: file.sha256, documents: documentsInFile, runId: runId)
                ]
                pending.append(completed)
                summary.filesRead += 1
                tracker.fileDone()
            case .changed(let file):
                var forgotten = DocumentBatch()
                forgotten.forgottenFiles = [file.sha256]
                pending.append(forgotten)
                summary.unreadableFiles.append(
                    "\(file.path): the file changed while it was read; it is read again on the next run")
                tracker.fileDone()
            case .read:
                // The processing stage turns every `read` into `processed`.
                preconditionFailure("unprocessed chunk reached the loader")
            }
        }
        if !pending.isEmpty { try writer.submit(pending) }
        try writer.finish()
        if isBulkLoad {
            // The index builds hand freed memory back themselves (the pipeline's buffers, the load's page cache), so
            // the peak stays that of the pipeline alone.
            tracker.buildingIndexes()
            try storeWriter.finishIngest()
        }
        tracker.finish()
        summary.signatureChecks = verifier?.signatureChecks ?? 0
        return summary
    }
}
