import Foundation
import IAPFormats
import IAPStore

/// Verifies and decodes the reader's chunks on all cores, on a thread of its own, and hands the rows on in
/// input order. Because it runs beside the loader (which assembles batches for the writer), the cores start
/// on the next chunk while the previous one is still being assembled.
final class ProcessingStage: Sendable {
    private let output: BoundedQueue<IngestEvent>
    private let reader: ArchiveReader

    init(reader: ArchiveReader, processor: DocumentProcessor, capacity: Int = 2) {
        let output = BoundedQueue<IngestEvent>(capacity: capacity)
        self.output = output
        self.reader = reader
        let thread = Thread {
            defer { output.finish() }
            while let event = reader.next() {
                let next: IngestEvent
                if case .read(let file, let items) = event {
                    next = .processed(file, Self.process(items, file: file, processor: processor))
                } else {
                    next = event
                }
                guard output.put(next) else { return }
            }
        }
        thread.name = "iaplens.process"
        thread.start()
    }

    /// The next event in input order (chunks arrive as `processed`), or nil at the end.
    func next() -> IngestEvent? { output.take() }

    /// Stops this stage and the reader.
    func cancel() {
        output.cancel()
        reader.cancel()
    }

    private static func process(_ items: [DocumentReadResult], file: SourceFile, processor: DocumentProcessor) -> [DocumentBatch] {
        ParallelMap.map(items) { item in
            switch item {
            case .document(let line, let bytes): processor.process(bytes: bytes, line: line, file: file)
            case .failure(let line, let failure): processor.readFailure(failure, line: line, file: file)
            }
        }
    }
}
