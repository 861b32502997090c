import Foundation
import IAPFormats
import IAPStore
import IAPVerification

/// The `ingest` stage: reads new input files, verifies and decodes their documents on all cores, and
/// loads them in order, one SQLite transaction per batch. A file already read (same content) is
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
        /// Documents per SQLite transaction (about 8 MB of rows; at most 3 batches are in memory at once: one
        /// filling, one queued, one being written). Each commit rewrites every index page it touched, and index
        /// keys (UUIDs, transaction IDs) are random, so fewer, larger transactions write far less: a 100k archive
        /// under --no-verify took 12.6 s with 1,024 and 9.3 s with 4,096 (with the checkpoint setting below).
        public var batchSize: Int = 4_096
        /// Lines handed to the workers at a time.
        public var chunkSize: Int = 256

        /// Creates options.
        public init(inputs: [String], policy: IngestPolicy, roots: [TrustedRoot]) {
            self.inputs = inputs
            self.policy = policy
            self.roots = roots
        }
    }

    private let store: Store
    private let options: Options
    private let progress: (@Sendable (IngestProgress) -> Void)?

    /// Creates the stage.
    public init(store: Store, options: Options, progress: (@Sendable (IngestProgress) -> Void)? = nil) {
        self.store = store
        self.options = options
        self.progress = progress
    }

    /// Runs the stage under the given run ID.
    public func run(runId: Int64) throws -> IngestSummary {
        let discovery = try InputDiscovery.discover(options.inputs)
        let verifier = options.policy.verifySignatures ? try JWSVerifier(trustedRoots: options.roots) : nil
        let processor = DocumentProcessor(policy: options.policy, verifier: verifier)
        let storeWriter = StoreWriter(store: store)
        try storeWriter.prepareForBulkLoad()
        let writer = BatchWriterThread(writer: storeWriter)
        var summary = IngestSummary(filesFound: discovery.files.count, filesIgnored: discovery.skipped)
        var tracker = ProgressTracker(totalFiles: discovery.files.count, report: progress)
        // Files are registered in the batch that carries their first rows, so the writer never has to drain
        // between files (it did, once per file: the cores idled while the last batch of each file was written).
        var known = try storeWriter.completedFileHashes()

        for input in discovery.files {
            let file: SourceFile
            do {
                file = SourceFile(path: input.path, sha256: try FileDigest.sha256Hex(ofFileAt: input.path), byteCount: input.byteCount)
            } catch {
                summary.unreadableFiles.append("\(input.path): \(error)")
                continue
            }
            // Complete in the store, or the same content met earlier in this run under another name.
            guard known.insert(file.sha256).inserted else {
                summary.filesAlreadyRead += 1
                tracker.fileDone()
                continue
            }
            var pending = DocumentBatch()
            pending.startedFiles.append(StartedFile(fileSHA256: file.sha256, path: file.path, byteCount: file.byteCount, runId: runId))
            var documents = 0
            var chunk: [(line: Int, bytes: [UInt8])] = []

            func flushChunk() {
                if chunk.isEmpty { return }
                let results = ParallelMap.map(chunk) { item in processor.process(bytes: item.bytes, line: item.line, file: file) }
                for result in results {
                    pending.append(contentsOf: result)
                    summary.count(result)
                }
                tracker.add(documents: results.reduce(0) { $0 + $1.documents.count }, quarantined: results.reduce(0) { $0 + $1.quarantine.count })
                chunk.removeAll(keepingCapacity: true)
            }

            // The next chunks are read and decompressed on another thread while the cores process this one.
            let reader = PrefetchingReader(file: input, chunkSize: options.chunkSize, capacity: 2)
            defer { reader.cancel() }
            while let items = reader.next() {
                for item in items {
                    switch item {
                    case .document(let line, let bytes):
                        chunk.append((line, bytes))
                    case .failure(let line, let failure):
                        flushChunk()
                        let result = processor.readFailure(failure, line: line, file: file)
                        pending.append(contentsOf: result)
                        summary.count(result)
                    }
                }
                flushChunk()
                if pending.documentCount >= options.batchSize {
                    documents += pending.documentCount
                    try writer.submit(pending)
                    pending = DocumentBatch()
                }
            }
            flushChunk()
            documents += pending.documentCount
            pending.completedFiles.append(CompletedFile(fileSHA256: file.sha256, documents: documents, runId: runId))
            try writer.submit(pending)
            summary.filesRead += 1
            tracker.fileDone()
        }
        try writer.finish()
        tracker.finish()
        return summary
    }
}
