#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Cuts decompressed chunks into documents (lines, or the whole content), independent of where chunks end.
struct DocumentSplitter {
    let layout: InputLayout
    let maxDocumentBytes: Int

    /// Bytes of the current chunk not yet consumed (borrowed; valid until the next ``feed(_:)``).
    private var chunk = UnsafeRawBufferPointer(start: nil, count: 0)
    private var position = 0
    /// The start of a line that continues into the next chunk.
    private var pending: [UInt8] = []
    /// Length of the current line while it is over the limit (its bytes are dropped, not kept).
    private var oversizedLength: Int?
    /// Lines completed so far (blank ones included).
    private var lineCount = 0
    private var ready: [DocumentReadResult] = []
    private var readyIndex = 0
    private(set) var isFinished = false

    init(layout: InputLayout, maxDocumentBytes: Int) {
        self.layout = layout
        self.maxDocumentBytes = maxDocumentBytes
    }

    /// Hands out results already found, then scans the current chunk for the next one.
    mutating func nextResult() -> DocumentReadResult? {
        if readyIndex < ready.count {
            defer {
                readyIndex += 1
                if readyIndex == ready.count {
                    ready.removeAll(keepingCapacity: true)
                    readyIndex = 0
                }
            }
            return ready[readyIndex]
        }
        guard layout == .lines else {
            absorbRest()
            return nil
        }
        while position < chunk.count {
            let rest = UnsafeRawBufferPointer(rebasing: chunk[position...])
            guard let base = rest.baseAddress, let found = memchr(base, Int32(Byte.newline), rest.count) else {
                absorbRest()
                return nil
            }
            let length = base.distance(to: UnsafeRawPointer(found))
            let end = position + length
            position = end + 1
            if let result = completeLine(UnsafeRawBufferPointer(rebasing: chunk[(end - length)..<end])) {
                return result
            }
        }
        return nil
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        chunk = bytes
        position = 0
    }

    /// The content ended (cleanly when `failure` is nil): emits the last unterminated line or the whole document.
    mutating func finish(failure: FormatFailure?) {
        chunk = UnsafeRawBufferPointer(start: nil, count: 0)
        position = 0
        isFinished = true
        if let failure {
            // The partial line is where reading broke; its bytes are incomplete, so they are dropped.
            pending = []
            ready.append(.failure(line: lineCount + 1, failure))
            return
        }
        switch layout {
        case .lines:
            if !pending.isEmpty || oversizedLength != nil {
                if let result = completeLine(UnsafeRawBufferPointer(start: nil, count: 0)) { ready.append(result) }
            }
        case .wholeFile:
            if let length = oversizedLength {
                ready.append(.failure(line: 1, tooLarge(length, what: "The file")))
            } else if !pending.isEmpty {
                ready.append(.document(line: 1, bytes: Self.droppingByteOrderMark(pending)))
            }
            // An empty `.json` holds no document, as an empty `.jsonl` holds none: the two have the same content
            // hash, so counting one as a broken document made the quarantine depend on which was read first.
            pending = []
        }
    }

    // MARK: - Internals

    /// Moves the unconsumed rest of the chunk into `pending`, or only counts it once the line is over the limit.
    private mutating func absorbRest() {
        let rest = UnsafeRawBufferPointer(rebasing: chunk[position...])
        position = chunk.count
        guard !rest.isEmpty else { return }
        if let length = oversizedLength {
            oversizedLength = length + rest.count
        } else if pending.count + rest.count > maxDocumentBytes {
            oversizedLength = pending.count + rest.count
            pending = []  // release the memory now, not when the line ends
        } else {
            pending.append(contentsOf: rest)
        }
    }

    /// Completes a line whose tail in the current chunk is `tail`; returns nil for blank lines.
    private mutating func completeLine(_ tail: UnsafeRawBufferPointer) -> DocumentReadResult? {
        lineCount += 1
        if let length = oversizedLength {
            oversizedLength = nil
            return .failure(line: lineCount, tooLarge(length + tail.count, what: "Line \(lineCount)"))
        }
        var bytes: [UInt8]
        if pending.isEmpty {
            bytes = Array(tail)
        } else {
            // Taken, not shared: the append then grows the one buffer instead of copying a second one beside it
            // (a line near the limit held three times its size for a moment).
            bytes = pending
            pending = []
            bytes.append(contentsOf: tail)
        }
        if bytes.last == Byte.carriageReturn { bytes.removeLast() }
        if lineCount == 1 { bytes = Self.droppingByteOrderMark(bytes) }
        if bytes.count > maxDocumentBytes {
            return .failure(line: lineCount, tooLarge(bytes.count, what: "Line \(lineCount)"))
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        return .document(line: lineCount, bytes: bytes)
    }

    /// Editors on Windows like to start UTF-8 files with a byte-order mark; it is not part of the JSON.
    private static func droppingByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return bytes }
        return Array(bytes[3...])
    }

    private func tooLarge(_ length: Int, what: String) -> FormatFailure {
        FormatFailure(
            reason: .documentTooLarge,
            message: "\(what) holds \(length) bytes, over the limit of \(maxDocumentBytes) bytes; it was skipped."
        )
    }
}
