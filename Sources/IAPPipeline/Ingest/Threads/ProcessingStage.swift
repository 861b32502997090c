import Foundation
import IAPFormats
import IAPStore

/// Verifies and decodes the reader's chunks on all cores, on a thread of its own, and hands the rows on in
/// input order. Because it runs beside the loader (which assembles batches for the writer), the cores start
/// on the next round while the previous one is still being assembled.
final class ProcessingStage: Sendable {
    private let output: BoundedQueue<IngestEvent>
    private let reader: ArchiveReader

    /// - Parameter linesPerRound: lines verified together on all cores. Small files (a history or refund page is
    ///   one line of 10–20 documents) are gathered until there are this many, so the cores share them too.
    init(reader: ArchiveReader, processor: DocumentProcessor, linesPerRound: Int = 256, capacity: Int = 2) {
        let output = BoundedQueue<IngestEvent>(capacity: capacity)
        self.output = output
        self.reader = reader
        PipelineThread.start(name: "iaplens.process") {
            defer { output.finish() }
            var window: [IngestEvent] = []
            var lines = 0
            var bytes = 0
            while let event = reader.next() {
                // A round never grows past `linesPerRound` by taking a whole chunk on top of gathered small files.
                if case .read(_, let items) = event, lines > 0, lines + items.count > linesPerRound {
                    guard Self.flush(&window, processor: processor, into: output) else { return }
                    (lines, bytes) = (0, 0)
                }
                window.append(event)
                if case .read(_, let items) = event {
                    lines += items.count
                    bytes += items.reduce(0) { total, item in
                        if case .document(_, let line) = item { total + line.count } else { total }
                    }
                }
                // Bounded by events too (a run of empty or skipped files never waits for lines), and by bytes:
                // a history page is one line of 20 notifications, so 256 of them would hold 60 MB.
                if lines >= linesPerRound || window.count >= linesPerRound || bytes >= Self.bytesPerRound {
                    guard Self.flush(&window, processor: processor, into: output) else { return }
                    (lines, bytes) = (0, 0)
                }
            }
            _ = Self.flush(&window, processor: processor, into: output)
        }
    }

    /// About 256 notification lines (13 KB each): a round of pages stops there too.
    static let bytesPerRound = 4 << 20

    /// The next event in input order (chunks arrive as `processed`), or nil at the end.
    func next() -> IngestEvent? { output.take() }

    /// Stops this stage and the reader.
    func cancel() {
        output.cancel()
        reader.cancel()
    }

    /// Verifies every line of the window's `read` events in one round on all cores, then hands the events on in
    /// order with each `read` replaced by its `processed` rows. False once the output is cancelled.
    private static func flush(
        _ window: inout [IngestEvent], processor: DocumentProcessor, into output: BoundedQueue<IngestEvent>
    ) -> Bool {
        defer { window.removeAll(keepingCapacity: true) }
        var work: [(file: SourceFile, item: DocumentReadResult)] = []
        for case .read(let file, let items) in window {
            for item in items { work.append((file, item)) }
        }
        var results = ParallelMap.map(work) { entry in
            switch entry.item {
            case .document(let line, let bytes): processor.process(bytes: bytes, line: line, file: entry.file)
            case .failure(let line, let failure): processor.readFailure(failure, line: line, file: entry.file)
            }
        }[...]
        for event in window {
            let next: IngestEvent
            if case .read(let file, let items) = event {
                next = .processed(file, Array(results.prefix(items.count)))
                results = results.dropFirst(items.count)
            } else {
                next = event
            }
            guard output.put(next) else { return false }
        }
        return true
    }
}
